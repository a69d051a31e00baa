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
ARGS=(-- -q --suites mpi -e 16K --budget 0.02 --collectives allreduce)
nightly() { "$NIGHTLY" --launcher local --ranks 2 --bench "$BIN" "$@"; }

# First night: no baseline yet; the run becomes it; outputs land in the artifacts directory.
rc=0; nightly --baseline "$T/base.json" --artifacts "$T/a1" "${ARGS[@]}" > "$T/n1.txt" 2>&1 || rc=$?
[[ $rc == 0 ]] || { cat "$T/n1.txt"; fail "first night exited $rc"; }
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
cmp -s "$T/fast.json" "$T/fast.orig" || fail "a failed night must not replace the baseline"
[[ -s $T/a2/report.json ]] || fail "artifacts of a failed night missing"
python3 -c 'import json,sys; assert any(r["change"]=="SLOWER" for r in json.load(open(sys.argv[1]))["extra"]["baseline"]["rows"])' "$T/a2/report.json"

# A failed verdict fails the night too.
echo '{"spec_version": 1, "bandwidth": [{"suite": "mpi", "name": "allreduce", "min": 1e9}]}' > "$T/spec.json"
rc=0; nightly --baseline "$T/none.json" --spec "$T/spec.json" --artifacts "$T/a3" "${ARGS[@]}" > "$T/n3.txt" 2>&1 || rc=$?
[[ $rc == 1 ]] || { cat "$T/n3.txt"; fail "failed-verdict night exited $rc, expected 1"; }
[[ ! -e $T/none.json ]] || fail "a failed first night must not create the baseline"
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
