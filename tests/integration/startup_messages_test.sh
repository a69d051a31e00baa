#!/usr/bin/env bash
# The harness's own MPI messages before the first measurement go both ways (MpiContext::from_root):
# no broadcast, gather, scatter, rooted reduce or send comes before the first timed 8 B allreduce on
# any rank. A message sent one way only leaves Open MPI's shared-memory slot rings of the two
# directions at different places, which slowed the 8 B allreduce 9-14 % on this VM
# (bench/perf/harness_overhead.sh, job bare-odd). The calls are logged by a PMPI interposer
# (tests/support/mpi_call_log.cpp). Also checks that the log sees a one-way call when there is one:
# the run's last message (rank 0's exit code) is a broadcast.
# Usage: startup_messages_test.sh BINARY LIBMPI_CALL_LOG
source "$(dirname "$0")/lib.sh"
bin=$1 lib=$2
# Under ASan the runtime must come first among the libraries; a preloaded interposer comes before it.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"${MPIRUN[@]}" -np 2 -x LD_PRELOAD="$lib" -x MPI_CALL_LOG="$out/calls" "$bin" --suites mpi --collectives allreduce \
  -b 8 -e 8 -n 10 -c 0 --budget 0 -q -o "$out/r" >"$out/log" 2>&1 || { cat "$out/log"; fail "mpirun exited $?"; }
for rank in 0 1; do
  log="$out/calls.$rank"
  [[ -s $log ]] || fail "rank $rank: no calls logged in $log"
  first=$(grep -n -m1 '^Allreduce 2 float$' "$log" | cut -d: -f1) || fail "rank $rank: no 8 B float allreduce logged"
  before=$(head -n $((first - 1)) "$log" | grep -E '^(Bcast|Gather|Gatherv|Scatter|Reduce|Send)$' | sort | uniq -c || true)
  [[ -z $before ]] || fail "rank $rank: one-way calls before the first timed allreduce: $before"
  tail -n +"$first" "$log" | grep -q '^Bcast$' || fail "rank $rank: the log missed the closing broadcast"
done
echo "ok: no one-way message before the measurement on either rank"
