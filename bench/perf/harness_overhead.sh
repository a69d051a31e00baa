#!/usr/bin/env bash
# Benchmark (not a test): the mpi suite's allreduce (float, sum, out of place) against a bare
# single-threaded MPI_Allreduce loop timed as OSU times it (bench/perf/bare_allreduce.cpp), on 2 ranks
# of this node, at 8 B, 1 MiB and 64 MiB. Both tools run with the same iteration count and warm-up,
# pinned the same way (mpirun --bind-to core --map-by core: rank 0 on core 0, rank 1 on core 1), and
# alternate within one run. Every round runs, per size, the bare loop with MPI_Init (B) and
# gpunet-bench (G) twice each, as B G G B in odd rounds and G B B G in even ones, then two bare
# variants once each: as the harness runs MPI (MPI_Init_thread(MPI_THREAD_SINGLE) with a second
# thread asleep in poll() that never calls MPI, as the control thread) and at MPI_THREAD_FUNNELED.
# This VM switches between a fast and a slow speed (8 B: 0.19-0.27 against 0.45-0.55 us a call;
# 1 MiB: 150 against 550-750 us) for tenths of a second to seconds, within a process and between
# launches, for every tool alike: a run at the other speed gives a ratio near 2 or 0.5. So each run
# lasts about 0.5 s (8 B: 2,000,000 iterations; 1 MiB: 4,000), there are many rounds (31 by
# default), a round's ratio is the mean of its two gpunet-bench runs over the mean of its two bare
# runs, and the script measures its own noise floor: the A/A ratio of the bare loop against itself
# (the round's first bare run over its second), which a harness cannot move.
# Compared: the mean time per iteration (gpunet-bench: time_us.mean of its record, the mean of its
# batch means).
# Prints each round, then per size the median ratio with the middle half (25th..75th percentile)
# and the ratio of the median times over all rounds:
#   ours/bare         gpunet-bench against the single-threaded bare loop (target <= 1.05 at 8 B, 1 MiB)
#   bare/bare (A/A)   the bare loop against itself: how far from 1 this machine alone puts a ratio
#   ours/bare_same    gpunet-bench against the bare loop at the harness's thread level and threads
#   bare_same/bare    what the harness's thread level and its idle second thread alone cost
#   bare_fun/bare     what MPI_THREAD_FUNNELED would cost (Open MPI 4.1: its internal locking)
# Usage: bench/perf/harness_overhead.sh [BUILD_DIR] [ROUNDS] [ROUNDS_64M]   (env SIZES: a subset of "8 1M 64M")
# On a machine shared with other work, run it as `nice -n -20 bench/perf/harness_overhead.sh ...`: everything it
# starts inherits the priority, the yardstick and gpunet-bench alike; say the load (printed).
set -euo pipefail
build=${1:-build} rounds=${2:-31} rounds_big=${3:-15}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun -np 2 --bind-to core --map-by core)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
iters_of() { case $1 in 8) echo 2000000 ;; 1M) echo 4000 ;; *) echo 20 ;; esac; }
bytes_of() { case $1 in 8) echo 8 ;; 1M) echo $((1 << 20)) ;; *) echo $((64 << 20)) ;; esac; }
mean_us() { sed -n 's/.*mean_us=\([^ ]*\).*/\1/p'; }
bare() { "${mpirun[@]}" "$build/bare_allreduce" "$b" "$n" 2 "$@" | mean_us; }
ours() {
  "${mpirun[@]}" "$build/gpunet-bench" --suites mpi --collectives allreduce -b "$b" -e "$b" -n "$n" \
    --max-iters "$n" -w 2 -c 0 -q -o "$tmp/r" >/dev/null
  python3 -c 'import json, sys
r = next(x for x in map(json.loads, open(sys.argv[1])) if x["suite"] == "mpi" and x["status"] == "passed")
t = r["extra"].get("timing", {})
print(r["time_us"]["mean"], "%s:%sx%s" % (t.get("method"), t.get("batches"), t.get("iters_per_batch")))' "$tmp/r/results.jsonl"
}
echo "load before: $(uptime)"
for i in $(seq "$(( rounds > rounds_big ? rounds : rounds_big ))"); do
  for size in ${SIZES:-8 1M 64M}; do
    [[ $size != 64M && $i -gt $rounds ]] && continue
    [[ $size == 64M && $i -gt $rounds_big ]] && continue
    n=$(iters_of "$size") b=$(bytes_of "$size")
    if (( i % 2 )); then
      b1=$(bare); read -r g1 how < <(ours); read -r g2 how < <(ours); b2=$(bare)
    else
      read -r g1 how < <(ours); b1=$(bare); b2=$(bare); read -r g2 how < <(ours)
    fi
    same=$(bare single idle-thread) fun=$(bare funneled)
    echo "$size $b1 $b2 $g1 $g2 $same $fun" >>"$tmp/rounds.txt"
    printf 'round %d %3s: bare %.3f %.3f us, gpunet-bench %.3f %.3f us (%s), bare SINGLE + idle thread %.3f us, bare FUNNELED %.3f us\n' \
      "$i" "$size" "$b1" "$b2" "$g1" "$g2" "$how" "$same" "$fun"
  done
done
echo "load after: $(uptime)"
python3 - "$tmp/rounds.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
for size in ("8", "1M", "64M"):
    got = [tuple(map(float, r[1:])) for r in rows if r[0] == size]  # b1 b2 g1 g2 same fun
    if not got:
        continue
    bare = [(x[0] + x[1]) / 2 for x in got]
    ours = [(x[2] + x[3]) / 2 for x in got]
    ratios = (("ours/bare", [o / b for o, b in zip(ours, bare)]),
              ("bare/bare (A/A)", [x[0] / x[1] for x in got]),
              ("ours/bare_same", [o / x[4] for o, x in zip(ours, got)]),
              ("bare_same/bare", [x[4] / b for x, b in zip(got, bare)]),
              ("bare_fun/bare", [x[5] / b for x, b in zip(got, bare)]))
    for name, v in ratios:
        v = sorted(v)
        q = statistics.quantiles(v, n=4, method="inclusive") if len(v) > 1 else [v[0]] * 3
        print(f"{size:>3} {name:16s} median {statistics.median(v):.4f}  middle half {q[0]:.4f}..{q[2]:.4f}  ({len(v)} rounds)")
    med = {k: statistics.median(v) for k, v in (("bare", bare), ("ours", ours), ("bare_same", [x[4] for x in got]),
                                                ("bare_fun", [x[5] for x in got]))}
    print(f"{size:>3} ratio of the median times: ours/bare {med['ours'] / med['bare']:.4f}, "
          f"ours/bare_same {med['ours'] / med['bare_same']:.4f}, bare_same/bare {med['bare_same'] / med['bare']:.4f} "
          f"(median us: " + ", ".join(f"{k} {v:.4f}" for k, v in med.items()) + ")")
PY
