#!/usr/bin/env bash
# Two runs into one output directory keep both: the second renames the first run's results.jsonl
# after its start time (results-YYYYMMDDTHHMMSSZ.jsonl) and says so in one console line, as
# launch/quickstart does when run twice.
# Usage: two_runs_test.sh BINARY
source "$(dirname "$0")/lib.sh"
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(--suites mpi --collectives allreduce -b 1K -e 4K -f 4 -n 2 --budget 0.01 --timeout 60 -o "$out/r")
run() { "${MPIRUN[@]}" -np 2 "$bin" "${args[@]}" >"$1" 2>&1 || { local rc=$?; cat "$1"; fail "$2 run exited $rc"; }; }
run "$out/log1" first
! grep -q "of the earlier run is kept" "$out/log1" || fail "the first run claims to keep an earlier one"
first=$(cat "$out/r/results.jsonl")
run "$out/log2" second
line=$(grep "of the earlier run is kept as" "$out/log2") || { cat "$out/log2"; fail "no console line about the kept run"; }
kept=$(ls "$out/r"/results-*.jsonl)
[[ $(wc -l <<<"$kept") == 1 ]] || fail "want one kept file, got: $kept"
[[ $kept =~ /results-[0-9]{8}T[0-9]{6}Z(-[0-9]+)?\.jsonl$ ]] || fail "kept name $kept carries no start time"
[[ $line == *"$kept"* ]] || fail "console line does not name $kept: $line"
[[ $(cat "$kept") == "$first" ]] || fail "the kept file is not the first run's results.jsonl"
[[ -s $out/r/results.jsonl ]] || fail "the second run wrote no results.jsonl"
python3 - "$out/r/results.jsonl" "$out/r/report.json" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rep = json.load(open(sys.argv[2]))
assert len(recs) == len(rep["results"]), "results.jsonl holds more than the second run"
PY

# One run owns its output directory (issue 31): a second run into the same -o while the first is
# measuring is refused at once, exit 2, naming the first (pid, start time); the first is not disturbed.
# (Two ranks: one rank's collectives are skipped at once.) A re-render into it is refused the same way.
"${MPIRUN[@]}" -np 2 "$bin" --suites mpi -b 1K -e 1M -f 2 -n 20 --budget 0.1 --timeout 60 -q -o "$out/busy" >"$out/busy1.log" 2>&1 &
first=$!
for _ in $(seq 200); do [[ -s $out/busy/.gpunet-bench.lock ]] && break; sleep 0.1; done
[[ -s $out/busy/.gpunet-bench.lock ]] || { cat "$out/busy1.log"; fail "the first run wrote no lock file"; }
owner=$(sed -n 's/^pid \([0-9]*\),.*/\1/p' "$out/busy/.gpunet-bench.lock")
set +e
timeout 60 "$bin" --suites mpi --collectives allreduce -b 1K -e 1K -n 2 --budget 0.01 -q -o "$out/busy" >"$out/busy2.log" 2>&1
rc=$?
timeout 60 "$bin" report "$out/r/results.jsonl" -o "$out/busy" >"$out/busy_report.log" 2>&1
rc_report=$?
alive=$(kill -0 "$first" 2>/dev/null && echo yes)
set -e
cat "$out/busy2.log"
[[ $alive == yes ]] || fail "the first run ended before the second was tried (make it longer)"
[[ $rc == 2 ]] || fail "a second run into a busy -o exited $rc, want 2"
[[ $rc_report == 2 ]] || { cat "$out/busy_report.log"; fail "a re-render into a busy -o exited $rc_report, want 2"; }
grep -q "^gpunet-bench report: error: -o/--output $out/busy is in use by another gpunet-bench run (pid $owner, " "$out/busy_report.log" \
  || { cat "$out/busy_report.log"; fail "the re-render's refusal does not name the run"; }
grep -Eq "^gpunet-bench: error: -o/--output $out/busy is in use by another gpunet-bench run \(pid $owner, started [0-9T:.-]+Z on [^,]+, see $out/busy/.gpunet-bench.lock\); wait for it to end or choose another -o DIR$" "$out/busy2.log" \
  || fail "the refusal does not name the other run"
wait "$first" || { cat "$out/busy1.log"; fail "the first run failed beside the refused one"; }
python3 - "$out/busy/results.jsonl" "$out/busy/report.json" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rep = json.load(open(sys.argv[2]))
assert len(recs) == len(rep["results"]) > 1, "the first run's files were disturbed"
assert {r["name"] for r in recs} > {"allreduce"}, "the refused run wrote into the first run's files"
PY
# The lock ends with its run: the next run into the directory goes ahead.
timeout 60 "$bin" --suites mpi --collectives allreduce -b 1K -e 1K -n 2 --budget 0.01 -q -o "$out/busy" >"$out/busy3.log" 2>&1 \
  || { cat "$out/busy3.log"; fail "a run after the first ended was refused"; }
echo "ok: both runs kept ($kept and results.jsonl); a run or a re-render into a busy -o is refused, naming the owner"
