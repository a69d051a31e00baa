#!/usr/bin/env bash
# Benchmark (not a test): the node suite's host-memory kernels (read, write, copy, triad over 128 MiB
# arrays) against plain OpenMP loops over arrays of the same size (bench/perf/membw_plain.cpp), at one
# thread and at every CPU of the machine, alternating ROUNDS times in one run (odd rounds the plain
# loops first, even rounds gpunet-bench first). Both sides measure the same thing the same way:
#   - the same arrays (3 x 128 MiB), the same byte counts (STREAM's: read 1x, write 1x, copy 2x,
#     triad 3x), ordinary stores on both sides (no non-temporal memcpy), a read with independent
#     partial sums on both sides;
#   - the same pinning: thread m on CPU m (OpenMP: OMP_PLACES=cores OMP_PROC_BIND=close; the node
#     suite's thread team pins member m to the m-th CPU of the NUMA node; mpirun --bind-to none so
#     that the process may use every CPU);
#   - the same timing: one untimed pass, one estimating pass, 3 batches of ceil(0.1 s / estimate)
#     passes; compared are the bandwidth of the mean of the batch means (the record's algbw_GBps) and
#     of their median.
# Prints each round, the load, and per kernel and thread count the median ratio gpunet-bench/plain
# over the rounds with its middle half. Target: within 10 % (0.90..1.10).
# Usage: bench/perf/membw_vs_plain.sh [BUILD_DIR] [ROUNDS]
# On a machine shared with other work, run it as `nice -n -20 bench/perf/membw_vs_plain.sh ...`: everything it
# starts inherits the priority, the yardstick and gpunet-bench alike; say the load (printed).
set -euo pipefail
build=${1:-build} rounds=${2:-5}
bytes=$((128 << 20)) cpus=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "load before: $(uptime)"
plain() { OMP_PLACES=cores OMP_PROC_BIND=close "$build/membw_plain" "$bytes" "$1" 0.1 3; }
ours() {
  mpirun -np 1 --bind-to none "$build/gpunet-bench" --suites node --node-size "$bytes" --node-min-time 0.1 \
    --node-repetitions 3 -q -o "$tmp/n" >/dev/null
}
for i in $(seq "$rounds"); do
  if (( i % 2 )); then plain1=$(plain 1); plainN=$(plain "$cpus"); ours
  else ours; plain1=$(plain 1); plainN=$(plain "$cpus"); fi
  python3 - "$tmp/n/results.jsonl" "$plain1" "$plainN" "$i" >>"$tmp/rounds.txt" <<'PY'
import json, re, sys
plain = {}
for line in sys.argv[2:4]:
    f = dict(re.findall(r"(\w+)=([^ ]+)", line))
    plain[int(f["threads"])] = f
for r in map(json.loads, open(sys.argv[1])):
    if r["suite"] != "node" or not r["name"].startswith("membw_") or r["status"] != "passed":
        continue
    k, t = r["extra"]["kernel"], r["extra"]["threads"]
    if t not in plain:
        continue
    ref, ref_med = float(plain[t][k]), float(plain[t]["median_" + k])
    s = sorted(r["extra"]["samples_us"])
    med_us = s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2
    ours_med = r["bytes"] / 1e3 / med_us
    print(k, t, r["algbw_GBps"] / ref, ours_med / ref_med)
    print(f"round {sys.argv[4]} {k:5s} {t} threads: plain {ref:.2f} GB/s (median batch {ref_med:.2f}), "
          f"gpunet-bench {r['algbw_GBps']:.2f} GB/s (median batch {ours_med:.2f})", file=sys.stderr)
PY
done
echo "load after: $(uptime)"
python3 - "$tmp/rounds.txt" <<'PY'
import collections, statistics, sys
got = collections.defaultdict(list)
for l in open(sys.argv[1]):
    k, t, mean, med = l.split()
    got[(k, int(t))].append((float(mean), float(med)))
def summary(v):
    v = sorted(v)
    q = statistics.quantiles(v, n=4, method="inclusive") if len(v) > 1 else [v[0]] * 3
    return statistics.median(v), q[0], q[2]
print("gpunet-bench/plain, median over the rounds (middle half)")
for (k, t), v in sorted(got.items()):
    m, lo, hi = summary([x[0] for x in v])
    mm, mlo, mhi = summary([x[1] for x in v])
    print(f"{k:5s} {t} threads: mean-of-batches {m:.4f} ({lo:.4f}..{hi:.4f}), median batch {mm:.4f} ({mlo:.4f}..{mhi:.4f}), "
          f"{len(v)} rounds ({'within' if abs(m - 1) <= 0.10 else 'NOT within'} 10 %)")
PY
