#!/usr/bin/env bash
# ci/nightly.sh on this machine (--launcher local, the real mpirun): the first night creates the
# baseline, a run slower than the baseline or failing a verdict exits 1 and keeps its artifacts without
# touching the baseline, --update-baseline replaces it after a clean run, bad usage exits 2.
# Usage: nightly_test.sh PATH/TO/gpunet-bench
set -euo pipefail
source "$(dirname "$0")/../integration/lib.sh"
BIN=$1
NIGHTLY=$(cd "$(dirname "$0")/../.." && pwd)/ci/nightly.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# --host-busy-pct 100: the nightly flow is under test here, not the host-load rule (a CPU-loaded CI
# machine would otherwise make the constructed regression UNCERTAIN)
ARGS=(-- -q --suites mpi -e 16K --budget 0.02 --collectives allreduce --host-busy-pct 100)
nightly() { "$NIGHTLY" --launcher local --ranks 2 --bench "$BIN" "$@"; }

# First night: no baseline yet; the run becomes it; outputs land in the artifacts directory.
rc=0; nightly --baseline "$T/base.json" --artifacts "$T/a1" --history "$T/h.sqlite" "${ARGS[@]}" > "$T/n1.txt" 2>&1 || rc=$?
[[ $rc == 0 ]] || { cat "$T/n1.txt"; fail "first night exited $rc"; }
# --history: the night is in the history, and its history.md is kept with the artifacts.
grep -q "history: $T/a1/history.md" "$T/n1.txt" || { cat "$T/n1.txt"; fail "no history.md from --history"; }
grep -q '1 runs from' "$T/a1/history.md" || fail "history.md does not hold the night"
grep -q "baseline $T/base.json created from this run" "$T/n1.txt" || { cat "$T/n1.txt"; fail "baseline not created"; }
for f in report.json results.jsonl baseline-candidate.json; do [[ -s $T/a1/$f ]] || fail "artifact $f missing"; done
grep -q "^nightly.sh: PASS" "$T/n1.txt" || fail "no PASS line"
python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); assert b["gpunet_baseline"]==2 and len(b["figures"])==3, b' "$T/base.json"

# A baseline 10x better than any real run: a confirmed regression, exit 1, baseline untouched.
python3 - "$T/base.json" "$T/fast.json" 0.1 <<'PY'
import json, sys
b = json.load(open(sys.argv[1])); k = float(sys.argv[3])
for f in b["figures"].values():
    m = k if not f["higher_is_better"] else 1 / k  # k < 1: a baseline that was better than any real run
    f["value"] *= m; f["min"] *= m
    f["samples"] = [x * m for x in f["samples"]]
json.dump(b, open(sys.argv[2], "w"))
PY
cp "$T/fast.json" "$T/fast.orig"
rc=0; nightly --baseline "$T/fast.json" --artifacts "$T/a2" --update-baseline "${ARGS[@]}" > "$T/n2.txt" 2>&1 || rc=$?
[[ $rc == 1 ]] || { cat "$T/n2.txt"; fail "regression night exited $rc, expected 1"; }
grep -q "SLOWER" "$T/n2.txt" || fail "no SLOWER row"
# The summary line names the cause: the first sentence of "What is wrong" (the SLOWER figures).
grep -Eq "^nightly.sh: FAIL: .*SLOWER than the baseline" "$T/n2.txt" || { tail -n 3 "$T/n2.txt"; fail "the FAIL line does not name the SLOWER figures"; }
# A failed night keeps the baseline's values (it learns only the noise of SAME figures; none here).
python3 - "$T/fast.json" "$T/fast.orig" <<'PY' || fail "a failed night must not replace the baseline"
import json, sys
now, orig = (json.load(open(p))["figures"] for p in sys.argv[1:3])
assert now.keys() == orig.keys() and all(now[k]["value"] == orig[k]["value"] for k in now), "values changed"
assert all(now[k]["history"] == orig[k]["history"] for k in now), "a SLOWER figure was learned"
PY
[[ -s $T/a2/report.json ]] || fail "artifacts of a failed night missing"
python3 -c 'import json,sys; assert any(r["change"]=="SLOWER" for r in json.load(open(sys.argv[1]))["extra"]["baseline"]["rows"])' "$T/a2/report.json"

# A failed verdict fails the night too.
echo '{"spec_version": 1, "bandwidth": [{"suite": "mpi", "name": "allreduce", "min": 1e9}]}' > "$T/spec.json"
rc=0; nightly --baseline "$T/none.json" --spec "$T/spec.json" --artifacts "$T/a3" "${ARGS[@]}" > "$T/n3.txt" 2>&1 || rc=$?
[[ $rc == 1 ]] || { cat "$T/n3.txt"; fail "failed-verdict night exited $rc, expected 1"; }
[[ ! -e $T/none.json ]] || fail "a failed first night must not create the baseline"
# A night that fails its contract but is otherwise unchanged still teaches the baseline its noise:
# its SAME figures join their history, the values stay (the history was empty after three failed
# nights before --learn-baseline).
# The rule's default spreads are widened so that a figure of this unchanged run is SAME however busy
# the machine (the rule is stored in the baseline, for editing); what is tested is the learning.
python3 - "$T/base.json" "$T/learn.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
b["rule"]["default_time_spread_pct"] = b["rule"]["default_rate_spread_pct"] = 300
json.dump(b, open(sys.argv[2], "w"))
PY
cp "$T/learn.json" "$T/learn.orig"
rc=0; nightly --baseline "$T/learn.json" --spec "$T/spec.json" --artifacts "$T/a3b" "${ARGS[@]}" > "$T/n3b.txt" 2>&1 || rc=$?
[[ $rc == 1 ]] || { cat "$T/n3b.txt"; fail "failed-verdict night against a baseline exited $rc, expected 1"; }
grep -q "history learned this night's SAME figures" "$T/n3b.txt" || { tail -n 5 "$T/n3b.txt"; fail "no learning line"; }
python3 - "$T/learn.json" "$T/learn.orig" "$T/a3b/report.json" <<'PY' || fail "the failed night's SAME figures were not learned"
import json, sys
now, orig = (json.load(open(p))["figures"] for p in sys.argv[1:3])
same = {r["figure"] for r in json.load(open(sys.argv[3]))["extra"]["baseline"]["rows"] if r["change"] == "SAME"}
assert same, "no SAME figure to learn from"
for k in now:
    assert now[k]["value"] == orig[k]["value"], k
    assert len(now[k]["history"]) == len(orig[k]["history"]) + (k in same), (k, now[k]["history"], orig[k]["history"])
PY
python3 -c 'import json,sys; assert [v["status"] for v in json.load(open(sys.argv[1]))["extra"]["verdicts"]]==["FAIL"]' "$T/a3/report.json"

# --update-baseline after a clean night (the baseline here is 10x slower: every figure FASTER or SAME).
python3 - "$T/base.json" "$T/slow.json" 10 <<'PY'
import json, sys
b = json.load(open(sys.argv[1])); k = float(sys.argv[3])
for f in b["figures"].values():
    m = k if not f["higher_is_better"] else 1 / k  # k < 1: a baseline that was better than any real run
    f["value"] *= m; f["min"] *= m
    f["samples"] = [x * m for x in f["samples"]]
b["created"] = "old"
json.dump(b, open(sys.argv[2], "w"))
PY
rc=0; nightly --baseline "$T/slow.json" --artifacts "$T/a4" --update-baseline "${ARGS[@]}" > "$T/n4.txt" 2>&1 || rc=$?
[[ $rc == 0 ]] || { cat "$T/n4.txt"; fail "clean night exited $rc"; }
grep -q "baseline $T/slow.json updated from this run" "$T/n4.txt" || { cat "$T/n4.txt"; fail "baseline not updated"; }
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["created"] != "old"' "$T/slow.json"

# Usage errors: one line, exit 2.
rc=0; "$NIGHTLY" --launcher local > /dev/null 2> "$T/e1" || rc=$?
[[ $rc == 2 ]] && grep -q "no --baseline FILE" "$T/e1" || fail "missing --baseline: exit $rc, $(cat "$T/e1")"
rc=0; env -u SLURM_JOB_ID "$NIGHTLY" --baseline "$T/x.json" > /dev/null 2> "$T/e2" || rc=$?
[[ $rc == 2 ]] && grep -q "no allocation" "$T/e2" || fail "no launcher: exit $rc, $(cat "$T/e2")"
echo "ok: ci/nightly.sh"
