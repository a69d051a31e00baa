#!/usr/bin/env bash
# Benchmark (not a test): the mpi suite's allreduce (float, sum, out of place) against a bare
# single-threaded MPI_Allreduce loop timed as OSU times it (bench/perf/bare_allreduce.cpp), on 2 ranks
# of this node, at 8 B, 1 MiB and 64 MiB. Both tools run with the same iteration count and warm-up,
# pinned the same way (mpirun --bind-to core --map-by core: rank 0 on core 0, rank 1 on core 1), and
# alternate within one run: every round runs, per size, the bare loop with MPI_Init, gpunet-bench,
# the bare loop as the harness runs MPI (MPI_Init_thread(MPI_THREAD_SINGLE) with a second thread
# asleep in poll() that never calls MPI, as the control thread) and the bare loop with
# MPI_Init_thread(MPI_THREAD_FUNNELED), in that order in odd rounds and in the reverse order in even
# rounds, so that gpunet-bench always runs next to the single-threaded loop. Each run is long enough
# (8 B: 8,000,000 iterations, 1 MiB: 16,000, each 2-4 s) to span this VM's speed changes, which
# come and go over tenths of a second to seconds (8 B: 0.19, 0.25 and 0.45 us per iteration in one
# process). Compared: the mean time per iteration (gpunet-bench: time_us.mean of
# its record, the mean of its batch means).
# Prints each round, then per size the median ratio with the middle half (25th..75th percentile):
#   ours/bare         gpunet-bench against the single-threaded bare loop (target <= 1.05 at 8 B, 1 MiB)
#   ours/bare_same    gpunet-bench against the bare loop at the harness's thread level and threads
#   bare_same/bare    what the harness's thread level and its idle second thread alone cost
#   bare_fun/bare     what MPI_THREAD_FUNNELED would cost (Open MPI 4.1: its internal locking)
# Usage: bench/perf/harness_overhead.sh [BUILD_DIR] [ROUNDS] [ROUNDS_64M]   (env SIZES: a subset of "8 1M 64M")
# On a machine shared with other work, run it as `nice -n -20 bench/perf/harness_overhead.sh ...`: everything it
# starts inherits the priority, the yardstick and gpunet-bench alike; say the load (printed).
set -euo pipefail
build=${1:-build} rounds=${2:-15} rounds_big=${3:-15}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun -np 2 --bind-to core --map-by core)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
iters_of() { case $1 in 8) echo 8000000 ;; 1M) echo 16000 ;; *) echo 20 ;; esac; }
bytes_of() { case $1 in 8) echo 8 ;; 1M) echo $((1 << 20)) ;; *) echo $((64 << 20)) ;; esac; }
bare() { bare=$("${mpirun[@]}" "$build/bare_allreduce" "$b" "$n" 2); }
bare_same() { bare_same=$("${mpirun[@]}" "$build/bare_allreduce" "$b" "$n" 2 single idle-thread); }
bare_fun() { bare_fun=$("${mpirun[@]}" "$build/bare_allreduce" "$b" "$n" 2 funneled); }
ours() {
  "${mpirun[@]}" "$build/gpunet-bench" --suites mpi --collectives allreduce -b "$b" -e "$b" -n "$n" \
    --max-iters "$n" -w 2 -c 0 -q -o "$tmp/r" >/dev/null
}
echo "load before: $(uptime)"
for i in $(seq "$(( rounds > rounds_big ? rounds : rounds_big ))"); do
  for size in ${SIZES:-8 1M 64M}; do
    [[ $size != 64M && $i -gt $rounds ]] && continue
    n=$(iters_of "$size") b=$(bytes_of "$size")
    if (( i % 2 )); then bare; ours; bare_same; bare_fun; else bare_fun; bare_same; ours; bare; fi
    python3 - "$tmp/r/results.jsonl" "$bare" "$bare_same" "$bare_fun" "$size" "$i" >>"$tmp/rounds.txt" <<'PY'
import json, re, sys
r = next(x for x in map(json.loads, open(sys.argv[1])) if x["suite"] == "mpi" and x["status"] == "passed")
bare, same, fun = (float(dict(re.findall(r"(\w+)=([^ ]+)", s))["mean_us"]) for s in sys.argv[2:5])
ours = r["time_us"]["mean"]
t = r["extra"].get("timing", {})
print(sys.argv[5], ours / bare, ours / same, same / bare, fun / bare)
print(f"round {sys.argv[6]} {sys.argv[5]:>3}: bare {bare:.3f} us, bare SINGLE + idle thread {same:.3f} us, "
      f"bare FUNNELED {fun:.3f} us, gpunet-bench {ours:.3f} us "
      f"({t.get('method')} {t.get('batches')} x {t.get('iters_per_batch')})", file=sys.stderr)
PY
  done
done
echo "load after: $(uptime)"
python3 - "$tmp/rounds.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
for size in ("8", "1M", "64M"):
    got = [tuple(map(float, r[1:])) for r in rows if r[0] == size]
    if not got: continue
    for k, name in ((0, "ours/bare"), (1, "ours/bare_same"), (2, "bare_same/bare"), (3, "bare_fun/bare")):
        v = sorted(x[k] for x in got)
        q = statistics.quantiles(v, n=4, method="inclusive") if len(v) > 1 else [v[0]] * 3
        print(f"{size:>3} {name:13s} median {statistics.median(v):.4f}  middle half {q[0]:.4f}..{q[2]:.4f}  ({len(v)} rounds)")
PY
