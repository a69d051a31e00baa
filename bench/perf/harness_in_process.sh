#!/usr/bin/env bash
# Benchmark (not a test): what the mpi suite's own calls add to an allreduce, apart from what its
# process adds. harness_overhead.sh compares gpunet-bench with a bare loop in another process (the
# two taking turns on the cores, as this VM changes its speed every few seconds). Here the bare loop
# (bench/perf/in_process_bare_loop.cpp, preloaded) runs inside gpunet-bench while the suite times
# 8 B and 1 MiB allreduce, each pair a window of the suite's calls and a bare loop of as many calls
# back to back (which comes first alternates), both timed with one MPI_Wtime pair.
# Both ranks pinned as in harness_overhead.sh (mpirun --bind-to core --map-by core).
# Prints per size the median of the pairs' ratios (suite / bare) with the middle half, and the
# ratio of the sums. Usage: bench/perf/harness_in_process.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build} runs=${2:-15}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "load before: $(uptime)"
for i in $(seq "$runs"); do
  for size in 8 1M; do
    case $size in
      8) b=8 n=2000000 window=100000 ;;     # 8 pairs of 20-70 ms windows
      *) b=$((1 << 20)) n=4000 window=400 ;;  # 4 pairs of 60-300 ms windows
    esac
    mpirun -np 2 --bind-to core --map-by core -x LD_PRELOAD="$build/libin_process_bare_loop.so" \
      -x GPUNET_PERF_WINDOW=$window -x GPUNET_PERF_EVERY=$((window * 5 / 2)) -x GPUNET_PERF_OUT="$tmp/$size.txt" \
      "$build/gpunet-bench" --suites mpi --collectives allreduce -b "$b" -e "$b" -n "$n" --max-iters "$n" -w 2 -c 0 -q \
      -o "$tmp/r" >/dev/null
  done
  echo "run $i: pairs so far $(wc -l <"$tmp/8.txt") at 8 B, $(wc -l <"$tmp/1M.txt") at 1 MiB"
done
echo "load after: $(uptime)"
python3 - "$tmp" <<'PY'
import statistics, sys
for size in ("8", "1M"):
    pairs = [tuple(map(float, l.split())) for l in open(f"{sys.argv[1]}/{size}.txt") if l.strip()]
    r = sorted(s / b for s, b in pairs)
    q = statistics.quantiles(r, n=4, method="inclusive")
    print(f"{size:>2}: suite / bare in the same process: median {statistics.median(r):.4f} middle half {q[0]:.4f}..{q[2]:.4f}, "
          f"ratio of sums {sum(s for s, _ in pairs) / sum(b for _, b in pairs):.4f} ({len(pairs)} pairs; "
          f"median us suite {statistics.median(s for s, _ in pairs):.4f} bare {statistics.median(b for _, b in pairs):.4f})")
PY
