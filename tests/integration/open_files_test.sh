#!/usr/bin/env bash
# Start-up under open-file limits (issue 29): rank 0 holds a control connection per rank. 24 ranks
# whose hard limit is 40 fail at once (not after the 60 s connect timeout) with one line naming the
# limit and what to do, exit 2; a soft limit of 40 under a hard one of 4096 is raised and the run
# passes; so does a 64-file limit. The limit is set per rank (prlimit as the launched program):
# mpirun itself needs a pipe set per rank and stalls under 40 files.
# Usage: open_files_test.sh BINARY
source "$(dirname "$0")/lib.sh"
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run24() {  # LIMIT NAME: 24 ranks of the topo suite under prlimit --nofile=LIMIT
  local start=$SECONDS rc=0
  timeout 150 "${MPIRUN[@]}" -np 24 prlimit --nofile="$1" "$bin" --suites topo -q -o "$out/$2" >"$out/$2.log" 2>&1 || rc=$?
  echo "$rc $((SECONDS - start))"
}
read -r rc secs < <(run24 40:40 low)
[[ $rc == 2 ]] || { cat "$out/low.log"; fail "40-file limit: exit $rc, expected 2"; }
(( secs < 30 )) || fail "40-file limit: failed after $secs s, not at once"
want="gpunet-bench: error: open-file limit 40 is below the 24 ranks' control connections + 32: raise it (ulimit -n 4096 before mpirun; the hard limit is 40)"
[[ $(grep -c '^gpunet-bench: error:' "$out/low.log") == 1 ]] || { cat "$out/low.log"; fail "expected one error line"; }
grep -qxF "$want" "$out/low.log" || { cat "$out/low.log"; fail "the error line does not name the limit"; }
grep -q "no welcome" "$out/low.log" && fail "a member waited for a welcome"
echo "ok: 40-file limit: exit 2 after ${secs} s, one line"
read -r rc secs < <(run24 40:4096 raised)
[[ $rc == 0 ]] || { cat "$out/raised.log"; fail "soft 40, hard 4096: exit $rc, expected the soft limit raised and a pass"; }
echo "ok: soft limit 40 under hard 4096 raised, run passed in ${secs} s"
read -r rc secs < <(run24 64:64 enough)
[[ $rc == 0 ]] || { cat "$out/enough.log"; fail "64-file limit: exit $rc, expected a pass"; }
echo "ok: 24 ranks start under a 64-file limit (${secs} s)"
