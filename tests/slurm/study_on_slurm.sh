#!/usr/bin/env bash
# A study on a real Slurm cluster (docs/studies.md, "Slurm"): a one-node cluster on this
# machine (tests/slurm/cluster.sh, as root) whose MaxArraySize of 5 the study's 8 runs
# outgrow, so the array has 4 tasks of 2 runs, throttled to 2 at a time (%2). `study submit`
# hands it to sbatch, `study collect --wait` follows it to the end, and the same study run
# locally must find the same errors to the last digit and costs within a factor 10.
#   tests/slurm/study_on_slurm.sh path/to/wavebench-cli
set -euo pipefail
cli=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm test: slurmd runs as root here; run the tests as root (CI does)" >&2
  exit 1
fi
for program in slurmctld slurmd sbatch squeue scontrol; do
  command -v "$program" >/dev/null || {
    echo "slurm test: $program missing (scripts/wavebench.sh test installs slurmctld, slurmd, slurm-client)" >&2
    exit 1
  }
done
work=$(mktemp -d /tmp/wavebench-slurm.XXXXXX)
cleanup() {
  bash "$here/cluster.sh" stop "$work/cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT

MAX_ARRAY_SIZE=5 bash "$here/cluster.sh" start "$work/cluster"
export SLURM_CONF="$work/cluster/slurm.conf"
cat >"$work/study.json" <<'STUDY'
{"scenario": "builtin:standing-wave", "scenario_patch": {"reference": {"amplitude": 0.0001}},
 "axes": {"models": ["damped-wave", "swe-adi"], "grid": [32, 64], "dt": ["0.25x", "0.5x"]},
 "error": {"at": [0.5, 1]}}
STUDY

"$cli" study submit "$work/study.json" --out "$work/slurm" --slurm --array-limit 2 | tee "$work/submit.out"
grep -q "^submitted 8 runs as job [0-9][0-9]*;" "$work/submit.out"
grep -q "2 per task (MaxArraySize 5;" "$work/slurm/submit.sbatch"
grep -q -- "^#SBATCH --array=0-3%2$" "$work/slurm/submit.sbatch"
"$cli" study collect "$work/slurm" --wait
"$cli" study run "$work/study.json" --out "$work/local" --jobs 2 >/dev/null

# The two study.csv files, column by column: the errors and statuses equal, the costs close.
compare='
  FNR == 1 { for (k = 1; k <= NF; ++k) column[$k] = k; next }
  FILENAME == ARGV[1] { key = $column["run"] "@" $column["time"]; err[key] = $column["error_l1"] " " $column["error_l2"] " " $column["error_max"] " " $column["status"]; cpu[key] = $column["cpu_s"]; rows++; next }
  {
    key = $column["run"] "@" $column["time"]; seen++
    mine = $column["error_l1"] " " $column["error_l2"] " " $column["error_max"] " " $column["status"]
    if (!(key in err)) { print "only local: " key; bad = 1; next }
    if (err[key] != mine) { print key ": slurm " err[key] ", local " mine; bad = 1 }
    if ($column["status"] != "ok") { print key ": " $column["status"]; bad = 1 }
    ratio = cpu[key] / $column["cpu_s"]
    if (!(ratio > 0.1 && ratio < 10)) { print key ": cpu_s slurm " cpu[key] ", local " $column["cpu_s"]; bad = 1 }
  }
  END {
    if (rows != 16 || seen != 16) { print "rows: slurm " rows ", local " seen " (16 expected)"; bad = 1 }
    exit bad
  }'
awk -F, "$compare" "$work/slurm/study.csv" "$work/local/study.csv"
test -s "$work/slurm/report.html"

# A folder whose name holds a space, an apostrophe, a # and a %: sbatch's own reading of the
# #SBATCH lines must find the log path meant (runs/task-0.log in that folder) and the task
# must run the study there.
cat >"$work/one.json" <<'STUDY'
{"scenario": "builtin:standing-wave", "axes": {"models": ["swe-adi"], "grid": [32]},
 "error": {"at": [0.5]}}
STUDY
odd="$work/it's a #1 100% study"
"$cli" study submit "$work/one.json" --out "$odd" --slurm --time 10:00 | tee "$work/odd.out"
grep -q "^submitted 1 runs as job [0-9][0-9]*;" "$work/odd.out"
"$cli" study collect "$odd" --wait
test -s "$odd/runs/0000.json"
test -e "$odd/runs/task-0.log" || { echo "slurm test: no task log at $odd/runs/task-0.log" >&2; ls -R "$work" >&2; exit 1; }
awk -F, 'NR == 1 { for (k = 1; k <= NF; ++k) column[$k] = k; next }
  $column["status"] != "ok" { print "slurm test: " $0; bad = 1 } END { exit bad }' "$odd/study.csv"
echo "slurm test: 8 runs on Slurm (4 tasks of 2, 2 at a time) equal the local study; a folder named with a space, ', # and % takes its run"
