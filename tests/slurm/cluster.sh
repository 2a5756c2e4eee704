#!/usr/bin/env bash
# A one-node Slurm cluster on this machine for the study tests (docs/studies.md, "Slurm"):
#   tests/slurm/cluster.sh start DIR   writes DIR/slurm.conf, starts slurmctld and slurmd
#                                      (as root, no systemd), waits until the node is idle
#   tests/slurm/cluster.sh stop DIR    scontrol shutdown, waits for both daemons to leave
# Every command that talks to the cluster needs SLURM_CONF=DIR/slurm.conf. Slurm 22.05 (Debian
# 12) runs one node on localhost with no munge: AuthType=auth/none, CredType=cred/none;
# proctrack/pgid and task/none need no cgroups; accounting is off, so job states come from
# squeue (and the jobs' own result files), never sacct. MAX_ARRAY_SIZE (default 1001) sets
# MaxArraySize, so that a test can make a study outgrow it.
set -euo pipefail

start() {
  local dir
  dir=$(realpath -m "$1")
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  local cpus memory
  cpus=$(nproc)
  memory=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2))
  cat >"$dir/slurm.conf" <<CONF
ClusterName=wavebench
SlurmctldHost=localhost
AuthType=auth/none
CredType=cred/none
MpiDefault=none
ProctrackType=proctrack/pgid
TaskPlugin=task/none
ReturnToService=2
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmdSpoolDir=$dir/spool
StateSaveLocation=$dir/state
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmUser=root
SlurmdUser=root
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MaxArraySize=${MAX_ARRAY_SIZE:-1001}
NodeName=localhost CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -D -i >"$dir/log/slurmctld.out" 2>&1 &
  slurmd -D -N localhost >"$dir/log/slurmd.out" 2>&1 &
  for _ in $(seq 1 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
      echo "slurm: one node idle (SLURM_CONF=$SLURM_CONF)"
      return 0
    fi
    sleep 0.5
  done
  echo "slurm: the node did not come up; logs in $dir/log" >&2
  tail -n 5 "$dir/log/"*.log >&2 || true
  return 1
}

stop() {
  local dir
  dir=$(realpath -m "$1")
  export SLURM_CONF="$dir/slurm.conf"
  scontrol shutdown >/dev/null 2>&1 || true
  for _ in $(seq 1 40); do
    pgrep -f "slurm(ctld|d) -D" >/dev/null || return 0
    sleep 0.5
  done
  pkill -f "slurm(ctld|d) -D" || true
}

case "${1:-}" in
  start) start "${2:?DIR}" ;;
  stop) stop "${2:?DIR}" ;;
  *)
    echo "usage: tests/slurm/cluster.sh start|stop DIR" >&2
    exit 2
    ;;
esac
