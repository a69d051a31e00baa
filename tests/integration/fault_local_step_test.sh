#!/usr/bin/env bash
# Fault test for a rank-local step: the node suite runs on node leaders only (here rank 0), so when
# one of its steps exceeds --timeout the message must name that step and rank 0, which runs it alone,
# and must not blame rank 1, which correctly waits outside the step. Exit code 3; the timed_out record
# names rank 0 and the node suite.
source "$(dirname "$0")/lib.sh"
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Each node benchmark step lasts at least 3 repetitions x 0.1 s, far past --timeout 0.1.
set +e
timeout 120 "${MPIRUN[@]}" -np 2 "$bin" --suites node --node-size 16M --timeout 0.1 -q -o "$out/r" >"$out/log" 2>&1
rc=$?
set -e
cat "$out/log"
[[ $rc == 3 ]] || fail "exit code $rc, want 3"
host=$(hostname)
grep -E "^gpunet-bench: timeout: step 'node membw numa[0-9]+ [a-z]+' exceeded --timeout 0.1 s on rank 0 \($host\), which runs it alone; a hang inside the operation" "$out/log" \
  || fail "message does not name the node step and rank 0"
! grep -q "rank 1" "$out/log" || fail "rank 1 is blamed, but it is not in the step"
python3 - "$out/r/results.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
last = recs[-1]
assert last["status"] == "timed_out" and last["suite"] == "node", last
assert last["extra"]["culprit_rank"] == 0, last
print("ok: timed_out record for rank 0 in the node suite")
PY
