#!/usr/bin/env bash
# Benchmark (not a test): the mpi suite's allreduce (float, sum, out of place) against a bare
# single-threaded MPI_Allreduce loop timed as OSU times it (bench/perf/bare_allreduce.cpp), on 2 ranks
# of this node, at 8 B, 1 MiB and 64 MiB, both pinned the same way (mpirun --bind-to core --map-by
# core: rank 0 on core 0, rank 1 on core 1).
# The programs run at once and take turns on the cores (bench/perf/take_turns.py): one runs while
# the others are stopped, in rounds of shuffled order, and the turn passes every 0.25 s at 8 B,
# 0.5 s at 1 MiB and 2 s at 64 MiB (where one call takes ~40 ms), so that every program meets the
# same speeds of this VM (8 B: 0.2-0.3 or 0.5-0.7 us a call, changing every few seconds). Compared:
# the median time per call of each turn (of its batch means), against the mean of the bare loop's
# turns just before and after it. The bare loop's batches are as long as the suite's (20,000 calls
# at 8 B, 40 at 1 MiB; one call at 64 MiB, timed on its own as the suite times it) and, as in the
# suite, follow each other from one barrier with nothing but the clock between them.
# Jobs: gpunet-bench; bare (MPI_Init); bare-again (a second bare process: the A/A ratio, what the
# machine alone does to a ratio); at 8 B and 1 MiB also bare-same (initialised as the harness
# sets MPI up: MPI_THREAD_SINGLE, a second thread asleep in poll(), a duplicate of MPI_COMM_WORLD)
# and bare-odd (the bare loop after one MPI_Bcast from rank 0, a message sent one way only: at 8 B
# on the VM this was built on it costs 9-14 %, which gpunet-bench paid while its start-up sent
# three such messages; see MpiContext::from_root).
# Prints per size and job the median ratio to the bare loop with the middle half (25th..75th
# percentile) over all turns. Targets: gpunet-bench / bare <= 1.05 at 8 B and 1 MiB; at 64 MiB the
# median and middle half over at least 15 turns.
# Usage: bench/perf/harness_overhead.sh [BUILD_DIR]   (env SIZES: a subset of "8 1M 64M"; TIMELINE=1
# prints every turn's median). Run it as `nice -n -20 bench/perf/harness_overhead.sh ...` on a
# machine shared with other work; say the load (printed).
set -euo pipefail
build=${1:-build}
here=$(dirname "$0")
echo "load before: $(uptime)"
for size in ${SIZES:-8 1M 64M}; do
  case $size in
    8) args=(--bytes 8 --batch 20000 --iters 20000000 --turn 0.25 --jobs gpunet-bench,bare,bare-again,bare-same,bare-odd) ;;
    1M) args=(--bytes $((1 << 20)) --batch 40 --iters 40000 --turn 0.5 --jobs gpunet-bench,bare,bare-again,bare-same,bare-odd) ;;
    64M) args=(--bytes $((64 << 20)) --batch 1 --iters 1000 --turn 2 --jobs gpunet-bench,bare,bare-again) ;;
    *) echo "harness_overhead.sh: SIZES takes 8, 1M and 64M, not '$size'" >&2; exit 2 ;;
  esac
  python3 "$here/take_turns.py" --build "$build" "${args[@]}" ${TIMELINE:+--timeline}
done
echo "load after: $(uptime)"
