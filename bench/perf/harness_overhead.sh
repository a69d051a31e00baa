#!/usr/bin/env bash
# Benchmark (not a test): allreduce busbw at 64 MiB on 2 ranks, gpunet-bench against a bare
# MPI_Allreduce loop timed the same way (bench/perf/bare_allreduce.cpp), run alternately ROUNDS times
# in one go so that drift of the machine hits both alike. Each round gives two ratios
# gpunet-bench/bare: of the busbw from the mean time and of the busbw from the median (p50) time.
# The summary is the median ratio over the rounds, with the middle half of the ratios.
# Usage: bench/perf/harness_overhead.sh [BUILD_DIR] [ROUNDS] [ITERS]
set -euo pipefail
build=${1:-build} rounds=${2:-5} iters=${3:-20}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun -np 2 --bind-to none)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$rounds"); do
  bare=$("${mpirun[@]}" "$build/bare_allreduce" $((64 << 20)) "$iters" 2)
  "${mpirun[@]}" "$build/gpunet-bench" --suites mpi --collectives allreduce -b 64M -e 64M -n "$iters" \
    --max-iters "$iters" -w 2 -c 1 -q -o "$tmp/r$i" >/dev/null
  python3 - "$tmp/r$i/report.json" "$bare" "$i" >>"$tmp/rounds.txt" <<'PY'
import json, re, sys
r = next(x for x in json.load(open(sys.argv[1]))["results"] if x["suite"] == "mpi" and x["status"] == "passed")
bare = dict(re.findall(r"(\w+)=([0-9.]+)", sys.argv[2]))
factor = float(bare["busbw_GBps"]) * float(bare["mean_us"])  # bytes/1e9*2(n-1)/n, in GB/s*us
ours_mean, ours_p50 = r["busbw_GBps"], factor / r["time_us"]["p50"]
print(f'{ours_mean / float(bare["busbw_GBps"]):.4f} {ours_p50 / float(bare["busbw_p50_GBps"]):.4f}')
print(f'round {sys.argv[3]}: bare busbw {float(bare["busbw_GBps"]):.4f} GB/s (p50 {float(bare["busbw_p50_GBps"]):.4f}), '
      f'gpunet-bench {ours_mean:.4f} GB/s (p50 {ours_p50:.4f})', file=sys.stderr)
PY
done
python3 - "$tmp/rounds.txt" <<'PY'
import statistics, sys
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
for k, name in ((0, "mean"), (1, "p50")):
    r = sorted(x[k] for x in rows)
    q = statistics.quantiles(r, n=4) if len(r) > 1 else [r[0], r[0], r[0]]
    print(f"ratio gpunet-bench/bare busbw ({name} time): median {statistics.median(r):.4f}, "
          f"middle half {q[0]:.4f}..{q[2]:.4f}, over {len(r)} rounds")
PY
