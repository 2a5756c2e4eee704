#!/bin/bash
# Draws the Monai Valley gauges (docs/monai.md): one PNG per gauge of a run's gauges.csv, every
# model's surface against the tank's record (ref_eta), in cm over the first 25 s.
#   scripts/monai_gauge_plots.sh RUN_DIR... OUT_DIR
# Each RUN_DIR is the --out folder of a `wavebench-cli run --scenario builtin:monai` (one run of
# every model, or one run per model); OUT_DIR gets gauge-5.png, gauge-7.png and gauge-9.png
# (the gauge's name, spaces as dashes). Needs gnuplot.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 RUN_DIR... OUT_DIR" >&2
  exit 2
fi
out=${!#}
csvs=()
for run in "${@:1:$#-1}"; do
  [ -f "$run/gauges.csv" ] || { echo "$0: $run/gauges.csv: no such file" >&2; exit 2; }
  csvs+=("$run/gauges.csv")
done
command -v gnuplot >/dev/null || { echo "$0: gnuplot is not installed" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One file per gauge and model (time, eta in cm), and the record once per gauge.
awk -F, -v dir="$work" 'FNR > 1 {
  name = $2; gsub(/ /, "-", name)
  print $1, 100 * $4 > (dir "/" name "." $3 ".dat")
  if ($8 != "" && !((name, $1) in seen)) {
    seen[name, $1] = 1
    print $1, 100 * $8 > (dir "/" name ".tank.dat")
  }
  gauges[name] = 1
  models[$3] = 1
} END {
  for (g in gauges) print g > (dir "/gauges")
  for (m in models) print m > (dir "/models")
}' "${csvs[@]}"

for gauge in $(sort "$work/gauges"); do
  sort -n -o "$work/$gauge.tank.dat" "$work/$gauge.tank.dat"
  plot="plot '$work/$gauge.tank.dat' using 1:2 with lines lw 3 lc rgb 'black' title 'tank'"
  colour=0
  done_models=""
  colours=("#d62728" "#1f77b4" "#2ca02c" "#ff7f0e" "#9467bd")
  for model in swe-semi-lagrangian swe-adi damped-wave advected-wave $(sort "$work/models"); do
    [ -f "$work/$gauge.$model.dat" ] || continue
    case " $done_models " in *" $model "*) continue ;; esac
    done_models="$done_models $model"
    plot="$plot, '$work/$gauge.$model.dat' using 1:2 with lines lw 1.5 lc rgb '${colours[$colour]}' title '$model'"
    colour=$(((colour + 1) % ${#colours[@]}))
  done
  gnuplot <<GNUPLOT
set terminal pngcairo size 900,420 font "sans,11"
set output "$out/$gauge.png"
set title "Monai Valley, ${gauge/-/ }: surface elevation, models against the tank"
set xlabel "t (s)"
set ylabel "eta (cm)"
set xrange [0:25]
set grid
set key top left
$plot
GNUPLOT
  echo "wrote $out/$gauge.png"
done
