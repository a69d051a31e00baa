#!/usr/bin/env bash
# The run history: 14 runs over 7 days (09:00 and 21:00 UTC) made from a real report, in which the 21:00
# runs of one pair (vm:0 -> vm:1) are 40 % slower, are imported; history.md names the evening hour and
# that pair and no other. A baseline is taken from the last good runs; `report --history` adds a run;
# random bytes and another program's SQLite file are refused with exit 2 and one line.
# Usage: history_test.sh PATH/TO/gpunet-bench
set -euo pipefail
source "$(dirname "$0")/../integration/lib.sh"
BIN=$1
FIXTURE=$(cd "$(dirname "$0")/../data/report" && pwd)/default_np2.json
T=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$T"' EXIT
# expect_one_line_exit CODE OUTFILE COMMAND...: the command exits CODE with exactly one line on stderr.
expect_one_line_exit() {
  local want=$1 out=$2 rc=0; shift 2
  "$@" > /dev/null 2> "$out" || rc=$?
  [[ $rc == "$want" ]] || { cat "$out"; fail "$* exited $rc, expected $want"; }
  [[ $(wc -l < "$out") == 1 ]] || { cat "$out"; fail "$* wrote $(wc -l < "$out") lines, expected one"; }
}

# 14 reports: every figure within +-2 % (seeded), tcp goodput of vm:0 -> vm:1 x 0.6 at 21:00.
python3 - "$FIXTURE" "$T" <<'PY'
import json, random, sys
src, out = sys.argv[1], sys.argv[2]
rng = random.Random(7)
for day in range(7):
    for hour in (9, 21):
        rep = json.load(open(src))
        rep["provenance"]["start_time"] = "2026-11-%02dT%02d:00:00Z" % (23 + day, hour)
        rep["provenance"]["end_time"] = "2026-11-%02dT%02d:05:00Z" % (23 + day, hour)
        for r in rep["results"]:
            f = r.get("figure")
            if not f:
                continue
            k = 1 + rng.uniform(-0.02, 0.02)
            s = f["subject"]
            if hour == 21 and f["metric"] == "tcp.goodput" and s.get("kind") == "pair" and s.get("rank") == 0 and s.get("dst_rank") == 1:
                k *= 0.6
            f["value"] *= k
            f["samples"] = [x * k for x in f.get("samples", [])]
        json.dump(rep, open("%s/run-%d-%02d.json" % (out, day, hour), "w"))
PY

"$BIN" history import "$T/h.sqlite" "$T"/run-*.json > "$T/import.txt" 2>&1 || { cat "$T/import.txt"; fail "import failed"; }
grep -q "imported 14 run(s); 14 runs in all" "$T/import.txt" || { cat "$T/import.txt"; fail "import did not add 14 runs"; }
# The same reports again add nothing.
"$BIN" history import "$T/h.sqlite" "$T/run-0-09.json" | grep -q "imported 0 run(s); 1 already there; 14 runs in all" || fail "a run was imported twice"

"$BIN" history "$T/h.sqlite" -o "$T/out" > "$T/render.txt" 2>&1 || { cat "$T/render.txt"; fail "history failed"; }
[[ -s $T/out/history.md && -s $T/out/history.html ]] || fail "history.md or history.html missing"
# The drop section: the evening hour, that pair, 40 % on 7 of 7 days; no other pair, no morning.
drops=$(sed -n '/^## When figures drop/,/^## Step changes/p' "$T/out/history.md" | grep '^- ' || true)
[[ -n $drops ]] || { cat "$T/out/history.md"; fail "no drop found"; }
if grep -qv 'vm:0 -> vm:1 tcp goodput' <<<"$drops"; then echo "$drops"; fail "a drop names another figure"; fi
grep -q 'is 40 % lower at 21:00-22:00 UTC on 7 of 7 days' <<<"$drops" || { echo "$drops"; fail "the drop does not name 21:00-22:00 UTC and 40 % on 7 of 7 days"; }
if grep -q '09:00' <<<"$drops"; then fail "the morning is named"; fi
grep -q 'No figure changed in a step' "$T/out/history.md" || fail "a step change was found in runs without one"
grep -q '<svg' "$T/out/history.html" || fail "no trend chart in history.html"
grep -q '<h2>Hour of day of the figures that drop</h2>' "$T/out/history.html" && grep -q '<td>21:00-22:00 UTC</td>' "$T/out/history.html" \
  || fail "history.html has no hour-of-day table for the figure that drops in the evening"
grep -q 'vm:0 -> vm:1 tcp goodput' "$T/render.txt" || fail "the console does not print the drop"
# --figure and --since narrow it; a figure that matches nothing is one line, exit 2.
"$BIN" history "$T/h.sqlite" -o "$T/out2" --figure 'vm:1 -> vm:0' --since 2026-11-26 > /dev/null
grep -q '8 runs' "$T/out2/history.md" || fail "--since did not keep the last 4 days"
grep -q 'No figure is worse at an hour' "$T/out2/history.md" || fail "vm:1 -> vm:0 is named as dropping"
expect_one_line_exit 2 "$T/e1.txt" "$BIN" history "$T/h.sqlite" -o "$T/out3" --figure 'no such figure'
expect_one_line_exit 2 "$T/e1b.txt" "$BIN" history "$T/h.sqlite" --since yesterday

# A baseline from the last 5 good runs: the --baseline format, each figure with 4 values of history.
"$BIN" history "$T/h.sqlite" --save-baseline "$T/base.json" --last 5 > /dev/null
"$BIN" --check --baseline "$T/base.json" > /dev/null || fail "the baseline from history does not read back"
python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); assert all(len(f["history"])==4 for f in b["figures"].values()), b' "$T/base.json"

# `report X --history` records the stored run (a new start time: a new run).
sed 's/"start_time": *"[^"]*"/"start_time": "2026-12-01T09:00:00Z"/' "$T/run-6-09.json" > "$T/later.json"
"$BIN" report "$T/later.json" -o "$T/rr" --history "$T/h.sqlite" > "$T/rr.txt" 2>&1 || { cat "$T/rr.txt"; fail "report --history failed"; }
grep -q "added this run to $T/h.sqlite (15 runs)" "$T/rr.txt" || { cat "$T/rr.txt"; fail "report --history did not add the run"; }
# The baseline a run stores is its own, as --save-baseline writes it: with --baseline too (whose rule
# and history the saved one carries), still the default rule and no history.
python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); b["rule"]["min_samples"]=7; json.dump(b,open(sys.argv[2],"w"))' "$T/base.json" "$T/tuned.json"
"$BIN" report "$T/later.json" -o "$T/ro" --save-baseline "$T/own.json" > /dev/null 2>&1 || true
"$BIN" report "$T/later.json" -o "$T/rb" --history "$T/h2.sqlite" --baseline "$T/tuned.json" > /dev/null 2>&1 || true
for h in h h2; do
  "$BIN" history "$T/$h.sqlite" --save-baseline "$T/$h-last.json" --since 2026-12-01 --last 1 > /dev/null
  cmp <(grep -v '"created"' "$T/own.json") <(grep -v '"created"' "$T/$h-last.json") \
    || fail "the baseline $h.sqlite stored for report --history is not the run's own"
done

# Refused: random bytes, another program's SQLite file (exit 2, one line naming the file); the run's
# --history is checked before anything is measured.
head -c 8192 /dev/urandom > "$T/random.sqlite"
expect_one_line_exit 2 "$T/e2.txt" "$BIN" history "$T/random.sqlite"
grep -q "$T/random.sqlite: not an SQLite database" "$T/e2.txt" || { cat "$T/e2.txt"; fail "random bytes not named"; }
expect_one_line_exit 2 "$T/e3.txt" "$BIN" history import "$T/random.sqlite" "$T/run-0-09.json"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE runs(x)"); c.commit()' "$T/foreign.sqlite"
expect_one_line_exit 2 "$T/e4.txt" "$BIN" history import "$T/foreign.sqlite" "$T/run-0-09.json"
grep -q "$T/foreign.sqlite: an SQLite database of another program" "$T/e4.txt" || { cat "$T/e4.txt"; fail "foreign file not named"; }
expect_one_line_exit 2 "$T/e5.txt" "$BIN" --check --history "$T/foreign.sqlite"
expect_one_line_exit 2 "$T/e6.txt" "$BIN" history "$T/missing.sqlite"
expect_one_line_exit 2 "$T/e7.txt" "$BIN" --check --history "$T/no-such-dir/h.sqlite"
echo "history_test: ok"
