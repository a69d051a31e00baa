#!/usr/bin/env bash
# Benchmark (not a test): allreduce busbw at 64 MiB on 2 ranks, gpunet-bench against a bare
# MPI_Allreduce loop timed the same way, run alternately ROUNDS times in one go.
# Usage: bench/perf/harness_overhead.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
build=${1:-build} rounds=${2:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun -np 2 --bind-to none)
iters=20
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ratios=()
for i in $(seq "$rounds"); do
  bare=$("${mpirun[@]}" "$build/bare_allreduce" $((64 << 20)) $iters 2 | sed -n 's/.*busbw_GBps=\([0-9.]*\).*/\1/p')
  "${mpirun[@]}" "$build/gpunet-bench" --suites mpi --collectives allreduce -b 64M -e 64M -n $iters --max-iters $iters \
    -w 2 -c 1 -q -o "$tmp/r$i" >/dev/null
  ours=$(python3 -c "import json,sys; r=json.load(open('$tmp/r$i/report.json'))['results'][0]; print(r['busbw_GBps'])")
  ratio=$(python3 -c "print(f'{$ours/$bare:.4f}')")
  ratios+=("$ratio")
  echo "round $i: bare busbw ${bare} GB/s, gpunet-bench busbw ${ours} GB/s, ratio ${ratio}"
done
python3 -c "import statistics,sys; r=[float(x) for x in sys.argv[1:]]; print(f'median ratio gpunet-bench/bare = {statistics.median(r):.4f} over {len(r)} rounds')" "${ratios[@]}"
