#!/usr/bin/env bash
# Benchmark (not a test): the node suite's host-memory kernels (read, write, copy, triad over 128 MiB
# arrays) against plain OpenMP loops over arrays of the same size (bench/perf/membw_plain.cpp), at one
# thread and at every CPU of the machine, alternating ROUNDS times in one run. Neither tool pins its
# threads to cores (the node suite keeps them on the NUMA node, of which this machine may have one).
# Prints each round, the load, and per kernel and thread count the median ratio gpunet-bench/plain of
# the bandwidth with its middle half. Target: within 10 % (0.90..1.10).
# Usage: bench/perf/membw_vs_plain.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
build=${1:-build} rounds=${2:-5}
bytes=$((128 << 20)) cpus=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "load before: $(uptime)"
for i in $(seq "$rounds"); do
  plain1=$("$build/membw_plain" "$bytes" 1 20)
  plainN=$("$build/membw_plain" "$bytes" "$cpus" 20)
  mpirun -np 1 --bind-to none "$build/gpunet-bench" --suites node --node-size 128M -q -o "$tmp/n" >/dev/null
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
    ref = float(plain[t][k])
    print(k, t, r["algbw_GBps"] / ref)
    print(f"round {sys.argv[4]} {k:5s} {t} threads: plain {ref:.2f} GB/s, gpunet-bench {r['algbw_GBps']:.2f} GB/s", file=sys.stderr)
PY
done
echo "load after: $(uptime)"
python3 - "$tmp/rounds.txt" <<'PY'
import collections, statistics, sys
got = collections.defaultdict(list)
for l in open(sys.argv[1]):
    k, t, r = l.split()
    got[(k, int(t))].append(float(r))
for (k, t), v in sorted(got.items()):
    v.sort()
    q = statistics.quantiles(v, n=4, method="inclusive") if len(v) > 1 else [v[0]] * 3
    m = statistics.median(v)
    print(f"{k:5s} {t} threads: gpunet-bench/plain median {m:.4f}, middle half {q[0]:.4f}..{q[2]:.4f}, {len(v)} rounds "
          f"({'within' if abs(m - 1) <= 0.10 else 'NOT within'} 10 %)")
PY
