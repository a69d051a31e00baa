#!/usr/bin/env bash
# launch/gpunet-run and launch/gpunet-bind: the mpirun lines they generate (GPU hosts, GPU-less hosts,
# slots, environment pass-through, hostfile comments), one-line errors with exit 2 for bad hostfiles,
# unreachable hosts and hosts with another gpunet-bench build, NUMA binding from sysfs, and one real run through mpirun.
# Usage: gpunet_run_test.sh PATH/TO/gpunet-bench
set -euo pipefail
source "$(dirname "$0")/../integration/lib.sh"
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RUNW=$ROOT/launch/gpunet-run
BIND=$ROOT/launch/gpunet-bind
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
unset $(compgen -e | grep -E '^(NCCL|UCX|GPUNET)_' || true)

expect_line() {  # NAME EXPECTED COMMAND...
  local name=$1 want=$2; shift 2
  local got
  got=$("$@") || fail "$name: exit $?"
  [[ $got == "$want" ]] || fail "$name:
  got:  $got
  want: $want"
}
expect_error() {  # NAME MESSAGE-PART COMMAND...: exit 2, exactly one line on stderr containing MESSAGE-PART
  local name=$1 part=$2; shift 2
  local rc=0
  "$@" > "$T/out" 2> "$T/err" || rc=$?
  [[ $rc == 2 ]] || fail "$name: exit $rc, expected 2"
  [[ $(wc -l < "$T/err") == 1 ]] || fail "$name: expected one line, got: $(cat "$T/err")"
  grep -qF -- "$part" "$T/err" || fail "$name: '$(cat "$T/err")' lacks '$part'"
}

# GPU hosts: one rank per GPU, the bind wrapper in front of the program; comments, blank lines,
# indentation and CRLF line ends are fine; slots=N caps a host's ranks; gpus=N overrides the count.
printf '# two GPU nodes and a CPU-only login node\n\n  gpu-a   # first\ngpu-b slots=2\r\ncpu-1 gpus=0\n' > "$T/hosts"
expect_line "gpu hosts" \
  "mpirun -np 11 --host gpu-a:8,gpu-b:2,cpu-1:1 --map-by slot --bind-to none $BIND $BIN -o out" \
  "$RUNW" -H "$T/hosts" -g 8 --no-check -b "$BIN" -n -- -o out
expect_line "no bind" \
  "mpirun -np 11 --host gpu-a:8,gpu-b:2,cpu-1:1 --map-by slot --bind-to none $BIN" \
  "$RUNW" -H "$T/hosts" -g 8 --no-check --no-bind -b "$BIN" -n

# GPU-less hosts: one rank per host and no binding wrapper.
printf 'node01\nnode02 slots=16\n' > "$T/cpu"
expect_line "no-GPU hosts" "mpirun -np 2 --host node01:1,node02:1 --map-by slot --bind-to none $BIN --suites mpi" \
  "$RUNW" -H "$T/cpu" -g 0 --no-check -b "$BIN" -n -- --suites mpi
# The local host is asked (nvidia-smi -L; none on a machine without GPUs).
gpus_here=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
want_local="mpirun -np $((gpus_here > 0 ? gpus_here : 1)) --host localhost:$((gpus_here > 0 ? gpus_here : 1)) --map-by slot --bind-to none"
((gpus_here > 0)) && want_local+=" $BIND"
echo localhost > "$T/local"
expect_line "local host counted" "$want_local $BIN" "$RUNW" -H "$T/local" -b "$BIN" -n

# Environment: NCCL_*, UCX_* and GPUNET_* pass (sorted), others only with -x; mpirun arguments with -M.
expect_line "env pass-through" \
  "mpirun -np 2 --host node01:1,node02:1 --map-by slot --bind-to none -x GPUNET_TRACE -x NCCL_IB_HCA -x NCCL_SOCKET_IFNAME -x UCX_TLS -x MY_VAR --mca btl_tcp_if_include eth0 $BIN" \
  env NCCL_SOCKET_IFNAME=eth0 NCCL_IB_HCA='mlx5_0:1' UCX_TLS=rc,sm GPUNET_TRACE=1 OTHER=1 \
  "$RUNW" -H "$T/cpu" -g 0 --no-check -b "$BIN" -x MY_VAR -M --mca -M btl_tcp_if_include -M eth0 -n

# Bad input: one line, exit 2, naming the file and line.
printf 'node01\nnode02 slots=abc\n' > "$T/b1"; expect_error "bad slots" "$T/b1:2: slots='abc' is not a positive number" "$RUNW" -H "$T/b1" -g 0 -n
printf 'node01 cpus=4\n' > "$T/b2"; expect_error "bad key" "$T/b2:1: unknown attribute 'cpus'" "$RUNW" -H "$T/b2" -g 0 -n
printf 'node01 4\n' > "$T/b3"; expect_error "bare word" "$T/b3:1: '4' is not key=value" "$RUNW" -H "$T/b3" -g 0 -n
printf 'node01\nnode01\n' > "$T/b4"; expect_error "duplicate" "$T/b4:2: host 'node01' is listed twice" "$RUNW" -H "$T/b4" -g 0 -n
printf 'node_01!\n' > "$T/b5"; expect_error "bad name" "$T/b5:1: 'node_01!' is not a host name" "$RUNW" -H "$T/b5" -g 0 -n
printf '# nothing\n\n' > "$T/b6"; expect_error "empty" "hostfile '$T/b6' lists no host" "$RUNW" -H "$T/b6" -g 0 -n
expect_error "missing hostfile" "hostfile '$T/nope' does not exist or cannot be read" "$RUNW" -H "$T/nope" -n
expect_error "no hostfile" "no hostfile (give -H FILE" "$RUNW" -n
expect_error "bad option" "unknown option '--gpus'" "$RUNW" -H "$T/cpu" --gpus 3
expect_error "bad gpu count" "--gpus-per-node: 'x' is not a whole number" "$RUNW" -H "$T/cpu" -g x

# Reachability: 127.0.0.2 is loopback with no ssh server behind it; the check names the host.
printf 'localhost\n127.0.0.2\n' > "$T/unreach"
expect_error "unreachable host" "host '127.0.0.2' is not reachable" "$RUNW" -H "$T/unreach" -g 0 -n

# Same version on every host: a remote-shell agent (--rsh, as with launch/fakecluster-rsh) that runs
# each "host"'s commands with its own directory first in PATH, where gpunet-bench is a wrapper; node-c's
# wrapper reports another build. The odd host is named with both versions; mpirun gets the agent too.
mkdir -p "$T/nodes/node-a" "$T/nodes/node-b" "$T/nodes/node-c" "$T/nodes/node-d"
printf '#!/bin/sh\nhost=$1; shift\nPATH="%s/nodes/$host:$PATH" exec sh -c "$*"\n' "$T" > "$T/rsh"
for n in a b; do printf '#!/bin/sh\nexec %q "$@"\n' "$BIN" > "$T/nodes/node-$n/gpunet-bench"; done
printf '#!/bin/sh\necho "gpunet-bench 0.0.9 (0123456789ab)"\n' > "$T/nodes/node-c/gpunet-bench"
chmod +x "$T/rsh" "$T"/nodes/*/gpunet-bench
ours=$("$BIN" --version)
printf 'node-a\nnode-b\n' > "$T/same"
expect_line "same version" \
  "mpirun -np 2 --host node-a:1,node-b:1 --map-by slot --bind-to none --mca plm_rsh_agent $T/rsh gpunet-bench" \
  "$RUNW" -H "$T/same" -g 0 --rsh "$T/rsh" -b gpunet-bench -n
printf 'node-a\nnode-c\nnode-b\n' > "$T/mixed"
expect_error "mixed versions" "host 'node-c' runs 'gpunet-bench 0.0.9 (0123456789ab)', 2 of 3 hosts run '$ours'" \
  "$RUNW" -H "$T/mixed" -g 0 --rsh "$T/rsh" -b gpunet-bench -n
expect_line "mixed versions, --no-check" \
  "mpirun -np 3 --host node-a:1,node-c:1,node-b:1 --map-by slot --bind-to none --mca plm_rsh_agent $T/rsh gpunet-bench" \
  "$RUNW" -H "$T/mixed" -g 0 --rsh "$T/rsh" -b gpunet-bench --no-check -n
printf 'node-a\nnode-d\n' > "$T/missing"
expect_error "no program on a host" "host 'node-d' cannot run 'gpunet-bench --version'" \
  "$RUNW" -H "$T/missing" -g 0 --rsh "$T/rsh" -b gpunet-bench -n

# gpunet-bind: the rank's GPU by local rank, its NUMA node from sysfs, numactl in front.
mkdir -p "$T/sys/bus/pci/devices/0000:3b:00.0" "$T/sys/bus/pci/devices/0000:86:00.0"
echo 0 > "$T/sys/bus/pci/devices/0000:3b:00.0/numa_node"
echo 1 > "$T/sys/bus/pci/devices/0000:86:00.0/numa_node"
export GPUNET_SYSFS=$T/sys GPUNET_GPU_BUSIDS=00000000:3B:00.0,00000000:86:00.0 GPUNET_BIND_DRYRUN=1
expect_line "bind rank 0" "numactl --cpunodebind=0 --membind=0 -- prog a" env OMPI_COMM_WORLD_LOCAL_RANK=0 "$BIND" prog a
expect_line "bind rank 1" "numactl --cpunodebind=1 --membind=1 -- prog a" env OMPI_COMM_WORLD_LOCAL_RANK=1 "$BIND" prog a
expect_line "bind slurm" "numactl --cpunodebind=1 --membind=1 -- prog" env SLURM_LOCALID=3 "$BIND" prog
# CUDA_VISIBLE_DEVICES narrows the choice: by index, and by UUID prefix.
expect_line "bind visible index" "numactl --cpunodebind=1 --membind=1 -- prog" \
  env CUDA_VISIBLE_DEVICES=1 OMPI_COMM_WORLD_LOCAL_RANK=0 "$BIND" prog
expect_line "bind visible uuid" "numactl --cpunodebind=1 --membind=1 -- prog" \
  env CUDA_VISIBLE_DEVICES=GPU-test-1 SLURM_LOCALID=0 "$BIND" prog
expect_line "bind none visible" "prog" env CUDA_VISIBLE_DEVICES= "$BIND" prog
# A device the kernel puts on no NUMA node (-1), read from the real sysfs: unbound.
real_dev=$(ls /sys/bus/pci/devices | head -n 1)
if [[ $(cat "/sys/bus/pci/devices/$real_dev/numa_node") == -1 ]]; then
  expect_line "bind no node" "prog" env GPUNET_SYSFS=/sys GPUNET_GPU_BUSIDS=$real_dev "$BIND" prog
fi
expect_line "bind no gpu" "prog x" env GPUNET_GPU_BUSIDS= "$BIND" prog x
# Really bound: numactl runs the program on node 0's CPUs.
want_cpus=$(numactl --hardware | sed -n 's/^node 0 cpus: //p' | tr ' ' '\n' | sort -n | paste -sd, -)
got=$(GPUNET_BIND_DRYRUN=0 OMPI_COMM_WORLD_LOCAL_RANK=0 "$BIND" python3 -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0)))))')
[[ $got == "$want_cpus" ]] || fail "bound rank runs on CPUs $got, node 0 has $want_cpus"
unset GPUNET_SYSFS GPUNET_GPU_BUSIDS GPUNET_BIND_DRYRUN

# A real run: this host stated to have 2 GPUs gives 2 ranks, each started through gpunet-bind (no
# nvidia-smi here, so they run unbound), and the report names both ranks.
echo "localhost gpus=2" > "$T/two"
"$RUNW" -H "$T/two" -b "$BIN" -M --mca -M mpi_yield_when_idle -M 1 \
  -- -q -e 4K --budget 0.01 --collectives allreduce -o "$T/report" > "$T/run.txt" || { cat "$T/run.txt"; fail "real run failed"; }
python3 - "$T/report/report.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
assert len(rep["provenance"]["hosts"]) == 2, rep["provenance"]
assert any(r["suite"] == "mpi" and r["status"] == "passed" and r["ranks"] == 2 for r in rep["results"]), rep["results"]
PY
echo "ok: gpunet-run and gpunet-bind"
