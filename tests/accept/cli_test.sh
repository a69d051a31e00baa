#!/usr/bin/env bash
# gpunet-bench --spec / --baseline / --save-baseline under the real mpirun: exit codes 0/1/2, the
# verdict and comparison tables in report.json, one-line errors for bad input.
# Usage: cli_test.sh PATH/TO/gpunet-bench
set -euo pipefail
source "$(dirname "$0")/../integration/lib.sh"
BIN=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
RUN=("${MPIRUN[@]}" -np 2 "$BIN" -q --suites mpi -e 16K --budget 0.02 --collectives allreduce,broadcast)

# 1. A spec the run meets, but with a promise it cannot judge (no GPU): exit 4 (INCOMPLETE), the
#    unjudged promise listed; PASS and SKIP verdicts in report.json.
cat > "$T/pass.json" <<'J'
{"spec_version": 1, "name": "loopback",
 "bandwidth": [{"suite": "mpi", "name": "allreduce", "min": 1e-6}],
 "latency": [{"suite": "mpi", "name": "broadcast", "max_p99_us": 1e7}],
 "pcie": {"gpu": {"gen": 4}}}
J
rc=0; "${RUN[@]}" -o "$T/o1" --spec "$T/pass.json" --save-baseline "$T/base.json" > "$T/o1.txt" || rc=$?
[[ $rc == 4 ]] || { cat "$T/o1.txt"; fail "passing spec with an unjudged promise: exit $rc, expected 4"; }
grep -q "2 PASS, 0 FAIL, 1 SKIP: INCOMPLETE (not judged: pcie.gpu)" "$T/o1.txt" || { cat "$T/o1.txt"; fail "no INCOMPLETE line"; }
grep -q "^# Acceptance: loopback" "$T/o1.txt" || fail "no verdict table on stdout"
grep -q "^# Baseline saved: $T/base.json" "$T/o1.txt" || fail "baseline not saved"
python3 - "$T/o1/report.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))["extra"]["verdicts"]
st = {x["promise"].split()[0]: x["status"] for x in v}
assert st == {"pcie.gpu": "SKIP", "bandwidth[0]": "PASS", "latency[0]": "PASS"}, st
assert all(x["measured"] and x["limit"] and x["reason"] for x in v), v
PY

# 2. A spec the run cannot meet: exit 1, FAIL in the table and the report, results kept.
sed 's/"min": 1e-6/"min": 1e9/' "$T/pass.json" > "$T/fail.json"
rc=0; "${RUN[@]}" -o "$T/o2" --spec "$T/fail.json" > "$T/o2.txt" || rc=$?
[[ $rc == 1 ]] || { cat "$T/o2.txt"; fail "failing spec: exit $rc, expected 1"; }
grep -Eq "^bandwidth\[0\] mpi/allreduce 16 KiB busbw_GBps +FAIL" "$T/o2.txt" || { cat "$T/o2.txt"; fail "no FAIL row"; }
python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["extra"]["verdicts"]; assert [x["status"] for x in v].count("FAIL")==1, v' "$T/o2/report.json"
[[ -s $T/o2/results.jsonl ]] || fail "results.jsonl missing after a failed verdict"
# Every output shows the table: report.md, report.html, and junit.xml as a testsuite "acceptance".
grep -q "^## Acceptance: loopback" "$T/o2/report.md" || fail "report.md lacks the verdict table"
grep -q "<h2>Acceptance: loopback</h2>" "$T/o2/report.html" || fail "report.html lacks the verdict table"
python3 - "$T/o2/junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
acc = root.find("./testsuite[@name='acceptance']")
assert acc is not None and acc.get("tests") == "3" and acc.get("failures") == "1" and acc.get("skipped") == "1", ET.tostring(acc)
assert int(root.get("tests")) == len(root.findall("./testsuite/testcase")), root.attrib
assert int(root.get("failures")) == len(root.findall("./testsuite/testcase/failure")), root.attrib
PY

# 3. A malformed spec: exit 2 before anything runs, one line naming the field and the problem.
echo '{"spec_version": 1, "nic": {"speed_Gbps": "fast"}}' > "$T/bad.json"
rc=0; "${RUN[@]}" -o "$T/o3" --spec "$T/bad.json" > "$T/o3.txt" 2> "$T/o3.err" || rc=$?
[[ $rc == 2 ]] || fail "malformed spec: exit $rc, expected 2"
[[ $(grep -c "gpunet-bench: error" "$T/o3.err") == 1 ]] || { cat "$T/o3.err"; fail "expected one error line"; }
grep -qF "gpunet-bench: error: $T/bad.json: nic.speed_Gbps: expected a number, got \"fast\"" "$T/o3.err" || { cat "$T/o3.err"; fail "error text"; }
[[ ! -e $T/o3 ]] || fail "a malformed spec must stop the run before it measures"

# 4. A baseline the run is clearly slower than (every busbw 10x higher, no noise): exit 1, SLOWER rows. (--host-busy-pct 100: the rule under test is the comparison, not the host-load rule)
python3 - "$T/base.json" "$T/fast_base.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
assert b["gpunet_baseline"] == 2 and len(b["figures"]) == 6, b["figures"].keys()
for f in b["figures"].values():
    # A collective's figure is its busbw, with the busbw of each timed batch as samples.
    assert f["higher_is_better"] is True and f["metric"] == "busbw_GBps" and f["samples_from"] == "batches", f
    f["value"] *= 10
    f["samples"] = [x * 10 for x in f["samples"]]
json.dump(b, open(sys.argv[2], "w"))
PY
rc=0; "${RUN[@]}" -o "$T/o4" --baseline "$T/fast_base.json" --host-busy-pct 100 > "$T/o4.txt" || rc=$?
[[ $rc == 1 ]] || { cat "$T/o4.txt"; fail "regression: exit $rc, expected 1"; }
# Which rows reach significance depends on the host's load (a busy host spreads the samples): any
# figure may be the SLOWER one, as long as one is.
grep -Eq "^mpi/(allreduce|broadcast)/out-of-place/[^ ]+ busbw_GBps .* SLOWER" "$T/o4.txt" || { cat "$T/o4.txt"; fail "no SLOWER row"; }
python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["extra"]["baseline"]; assert len(b["rows"])==6 and any(r["change"]=="SLOWER" for r in b["rows"]), b' "$T/o4/report.json"
python3 - "$T/o4/junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
base = ET.parse(sys.argv[1]).getroot().find("./testsuite[@name='baseline']")
assert base is not None and base.get("tests") == "6" and int(base.get("failures")) >= 1, ET.tostring(base)
PY
grep -q "^## Baseline: $T/fast_base.json" "$T/o4/report.md" || fail "report.md lacks the regression table"
# report.json with both tables still matches the shipped schema (when python3-jsonschema is there).
if python3 -c 'import jsonschema' 2> /dev/null; then
  python3 - "$(dirname "$0")/../../report/schema/report.schema.json" "$T/o2/report.json" "$T/o4/report.json" <<'PY'
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
for path in sys.argv[2:]:
    v.validate(json.load(open(path)))
PY
fi

# 5. A malformed baseline, and a baseline that cannot be saved: exit 2, one line each.
echo '{"gpunet_baseline": 2, "figures": []}' > "$T/badbase.json"
rc=0; "${RUN[@]}" -o "$T/o5" --baseline "$T/badbase.json" > /dev/null 2> "$T/o5.err" || rc=$?
[[ $rc == 2 ]] || fail "malformed baseline: exit $rc, expected 2"
grep -qF "gpunet-bench: error: $T/badbase.json: figures: expected an object, got an array" "$T/o5.err" || { cat "$T/o5.err"; fail "baseline error text"; }
# gpunet-bench report reads the baseline while it reads the results: the same line and exit code; a
# results file it cannot read is the one line then (nothing is judged against a baseline without it).
rc=0; "$BIN" report "$T/o1/report.json" -o "$T/o5r" --baseline "$T/badbase.json" > /dev/null 2> "$T/o5r.err" || rc=$?
[[ $rc == 2 ]] || fail "report, malformed baseline: exit $rc, expected 2"
grep -qF "gpunet-bench: error: $T/badbase.json: figures: expected an object, got an array" "$T/o5r.err" || { cat "$T/o5r.err"; fail "report: baseline error text"; }
rc=0; "$BIN" report "$T/no-such-results.jsonl" -o "$T/o5n" --baseline "$T/badbase.json" > /dev/null 2> "$T/o5n.err" || rc=$?
[[ $rc == 2 && $(wc -l < "$T/o5n.err") == 1 ]] && grep -qF "no-such-results.jsonl" "$T/o5n.err" || { cat "$T/o5n.err"; fail "report, missing results and a malformed baseline: exit $rc"; }
rc=0; "${RUN[@]}" -o "$T/o6" --save-baseline "$T/no/such/dir/b.json" > /dev/null 2> "$T/o6.err" || rc=$?
[[ $rc == 2 ]] || fail "unwritable --save-baseline: exit $rc, expected 2"
[[ $(grep -c "gpunet-bench: error" "$T/o6.err") == 1 ]] || { cat "$T/o6.err"; fail "expected one error line"; }
echo "ok: spec, baseline and exit codes"
