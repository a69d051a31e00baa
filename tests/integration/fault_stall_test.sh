#!/usr/bin/env bash
# Fault test: one rank is stopped (SIGSTOP) mid-run. The job must end within a few seconds of
# --timeout with exit code 3, one message naming the step and the stalled rank and host, and
# results.jsonl must keep every record completed before the fault as valid JSON lines.
source "$(dirname "$0")/lib.sh"
bin=$1
out=$(mktemp -d)
cleanup() { pkill -CONT -f "$out/r" 2>/dev/null || true; pkill -KILL -f "$out/r" 2>/dev/null || true; rm -rf "$out"; }
trap cleanup EXIT
timeout=3
"${MPIRUN[@]}" -np 2 "$bin" --suites mpi -b 1K -e 256M -f 4 -n 5 --budget 0.3 --timeout $timeout -q -o "$out/r" \
  >"$out/log" 2>&1 &
job=$!
# Wait until some records exist, then stop rank 1.
for _ in $(seq 100); do [[ -s $out/r/results.jsonl ]] && break; sleep 0.1; done
[[ -s $out/r/results.jsonl ]] || fail "no record was written before the fault"
victim=""
for p in $(pgrep -f -- "gpunet-bench .*-o $out/r"); do
  environ=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null || true)  # whole, not cut short by grep -q
  grep -qx 'OMPI_COMM_WORLD_RANK=1' <<<"$environ" && victim=$p
done
[[ -n $victim ]] || fail "could not find rank 1"
SECONDS=0
kill -STOP "$victim"
# The job must end on its own: allow the timeout plus a few seconds.
for _ in $(seq 150); do kill -0 $job 2>/dev/null || break; sleep 0.1; done
if kill -0 $job 2>/dev/null; then kill -CONT "$victim"; kill $job; fail "job still running 15 s after the stall"; fi
set +e; wait $job; rc=$?; set -e
elapsed=$SECONDS
cat "$out/log"
[[ $rc == 3 ]] || fail "exit code $rc, want 3"
grep -E "^gpunet-bench: timeout: step 'mpi [a-z_]+ [0-9]+[KMG]?' exceeded --timeout 3.0 s .*did not arrive: rank 1 \($(hostname)\)" "$out/log" \
  || fail "message does not name the step and rank 1"
python3 - "$out/r/results.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
done = [r for r in recs if r["status"] == "passed"]
assert done, "no completed record survived"
assert recs[-1]["status"] == "timed_out" and recs[-1]["extra"]["culprit_rank"] == 1, recs[-1]
print(f"ok: {len(done)} completed records kept, then the timed_out record")
PY
echo "ended $elapsed s after the stall"
