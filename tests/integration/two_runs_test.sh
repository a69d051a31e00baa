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
echo "ok: both runs kept ($kept and results.jsonl)"
