#!/usr/bin/env bash
# A real Slurm run on a one-host cluster that this test starts and stops: munged, slurmctld and slurmd
# from Debian's slurm-wlm, all state in a temporary directory, all traffic on 127.0.0.1.
#   1. srun -n 2 hostname runs two tasks;
#   2. sbatch launch/slurm/gpunet.sbatch (launch auto: srun --mpi=pmix when srun lists pmix) runs
#      gpunet-bench as 2 tasks and the report names 2 ranks;
#   3. the same with GPUNET_LAUNCH=mpirun (mpirun inside the allocation);
#   4. sbatch ci/nightly.sh runs the nightly job in the allocation.
# Usage: run_slurm_test.sh PATH/TO/gpunet-bench [gpunet-bench options...]
# Exit 77 (skipped) when Slurm or munge is not installed or the test does not run as root.
set -euo pipefail
BIN=$(realpath "$1"); shift
ARGS=(--suites topo,mpi -e 1M "$@")
((${#ARGS[@]})) || ARGS=(-q -e 4K --budget 0.01 --collectives allreduce)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

for tool in munged mungekey slurmctld slurmd srun sbatch sinfo scontrol; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool not installed (ci/setup.sh --tests installs slurm-wlm and munge)"; exit 77; }
done
[[ $(id -u) == 0 ]] || { echo "SKIP: the one-host cluster runs its daemons as root"; exit 77; }

D=$(mktemp -d /tmp/gpunet-slurm.XXXXXX)
chmod 755 "$D"
pids=()
cleanup() {
  local rc=$?
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[$i]}" 2> /dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
    kill -9 "$p" 2> /dev/null || true
  done
  if ((rc != 0)); then
    for f in "$D"/*.log "$D"/*.out; do [[ -f $f ]] && { echo "--- $f"; tail -n 20 "$f"; }; done
  fi
  rm -rf "$D"
}
trap cleanup EXIT

# sbatch, then wait for the job's end: 0 when it COMPLETED. (sbatch --wait sleeps 2, 8, then 32 s
# between its polls, which made a 10 s job cost up to 42 s.)
sbatch_wait() {  # SBATCH-ARGS...
  local id line=""
  id=$(sbatch --parsable "$@") && [[ -n $id ]] || return 1
  id=${id%%;*}
  for _ in $(seq 750); do
    line=$(scontrol show job -o "$id" 2> /dev/null || true)
    [[ $line =~ JobState=(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED) ]] && break
    sleep 0.2
  done
  [[ $line == *JobState=COMPLETED* ]] || { echo "job $id: $(grep -oE 'JobState=[A-Z_]+|ExitCode=[0-9:]+' <<< "$line" | tr '\n' ' ')"; return 1; }
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
host=$(hostname -s)
ctld_port=$(free_port)
slurmd_port=$(free_port)
[[ $ctld_port != "$slurmd_port" ]] || slurmd_port=$((ctld_port + 1))

# munge: a fresh key and a private socket.
mungekey -c -k "$D/munge.key" -b 1024
chmod 400 "$D/munge.key"
munged -F -f --key-file="$D/munge.key" --socket="$D/munge.socket" --pid-file="$D/munged.pid" \
  --log-file="$D/munged.log" --seed-file="$D/munged.seed" > "$D/munged.out" 2>&1 &
pids+=($!)

mkdir -p "$D/state" "$D/spool"
cat > "$D/slurm.conf" <<CONF
ClusterName=gpunettest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$D/munge.socket
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$D/slurm.conf
for _ in $(seq 50); do [[ -S $D/munge.socket ]] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" > "$D/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" > "$D/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 60); do
  state=$(sinfo -h -n "$host" -o %T 2> /dev/null || true)
  [[ $state == idle ]] && break
  sleep 0.5
done
[[ $state == idle ]] || fail "the node did not come up (state '$state')"

# 1. Two tasks.
out=$(timeout 30 srun -N 1 -n 2 hostname) || fail "srun -n 2 hostname failed"
[[ $(wc -l <<< "$out") == 2 && $(sort -u <<< "$out") == "$(hostname)" ]] || fail "srun -n 2 hostname printed: $out"

pmix=0
srun --mpi=list 2>&1 | grep -qw pmix && pmix=1
echo "srun --mpi=list: $(srun --mpi=list 2>&1 | tr '\n' ' ')"

# 2. and 3. The batch template, with the launch it picks and with mpirun inside the allocation.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 GPUNET_BENCH=$BIN
for launch in auto mpirun; do
  rc=0
  GPUNET_LAUNCH=$launch sbatch_wait -N 1 --ntasks-per-node=2 -o "$D/job-$launch.out" \
    "$ROOT/launch/slurm/gpunet.sbatch" "${ARGS[@]}" -o "$D/report-$launch" || rc=$?
  [[ $rc == 0 ]] || { cat "$D/job-$launch.out"; fail "sbatch ($launch) exited $rc"; }
  want="launching with mpirun"
  [[ $launch == auto && $pmix == 1 ]] && want="launching with srun --mpi=pmix"
  grep -q "$want" "$D/job-$launch.out" || { cat "$D/job-$launch.out"; fail "job ($launch) did not say '$want'"; }
  python3 - "$D/report-$launch/report.json" <<'PY' || fail "report ($launch)"
import json, sys
rep = json.load(open(sys.argv[1]))
assert len(rep["provenance"]["hosts"]) == 2, rep["provenance"]["hosts"]
assert any(r["suite"] == "mpi" and r["status"] == "passed" for r in rep["results"]), "no mpi result"
assert all(r["status"] == "passed" for r in rep["results"]), [r for r in rep["results"] if r["status"] != "passed"]
assert all(r["ranks"] == 2 for r in rep["results"] if r["suite"] == "mpi")
PY
  echo "ok: sbatch gpunet.sbatch ($launch): $(grep -o 'launching with.*' "$D/job-$launch.out")"
done
# 4. The nightly job inside an allocation: the first night creates the baseline and keeps artifacts.
rc=0
sbatch_wait -N 1 --ntasks-per-node=2 -o "$D/nightly.out" "$ROOT/ci/nightly.sh" \
  --baseline "$D/nightly-base.json" --artifacts "$D/nightly" --bench "$BIN" -- "${ARGS[@]}" || rc=$?
[[ $rc == 0 ]] || { cat "$D/nightly.out"; fail "sbatch ci/nightly.sh exited $rc"; }
grep -q "launcher=slurm" "$D/nightly.out" && grep -q "^nightly.sh: PASS" "$D/nightly.out" || { cat "$D/nightly.out"; fail "nightly output"; }
[[ -s $D/nightly-base.json && -s $D/nightly/report.json ]] || fail "nightly baseline or artifacts missing"
echo "ok: sbatch ci/nightly.sh"
echo "ok: Slurm one-host cluster"
