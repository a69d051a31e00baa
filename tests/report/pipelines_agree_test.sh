#!/usr/bin/env bash
# `gpunet-bench report` with and without --spec writes the same training section (--step-compute-s
# given to both), and the same figures, ceilings and run verdict: the two offline pipelines agree.
# Usage: pipelines_agree_test.sh PATH/TO/gpunet-bench SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
echo '{"spec_version": 1, "name": "lenient", "bandwidth": [{"suite": "nccl", "name": "allreduce", "min": 1e-9}]}' >"$T/spec.json"
"$bin" report "$src/tests/data/report/fixture.json" --step-compute-s 1.2 -o "$T/plain" >"$T/plain.log" 2>&1 || true
[[ -s $T/plain/report.json ]] || { cat "$T/plain.log"; fail "report wrote no report.json"; }
"$bin" report "$src/tests/data/report/fixture.json" --step-compute-s 1.2 --spec "$T/spec.json" -o "$T/spec" >"$T/spec.log" 2>&1 || true
[[ -s $T/spec/report.json ]] || { cat "$T/spec.log"; fail "report --spec wrote no report.json"; }
python3 - "$T/plain/report.json" "$T/spec/report.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ta, tb = a["extra"].get("training"), b["extra"].get("training")
assert ta and ta["available"] and ta["inputs"]["step_compute_s"] == 1.2, ta
assert ta == tb, "report --spec writes another training section than report"
fa = [(r.get("figure") or {}).get("ceiling") for r in a["results"]]
fb = [(r.get("figure") or {}).get("ceiling") for r in b["results"]]
assert fa == fb, "the ceilings differ"
# The contract adds its reason to the same verdict the records give.
ra, rb = a["extra"]["run_verdict"], b["extra"]["run_verdict"]
assert ra["verdict"] == rb["verdict"], (ra, rb)
assert any(r.startswith("contract lenient: ") for r in rb["reasons"]), rb
print("ok: training section and ceilings agree;", ra["verdict"])
PY
# A judged report re-rendered with inputs that judge nothing of its contract (--history, --save-baseline)
# keeps the contract's verdicts: its FAIL is not re-rendered as a PASS.
echo '{"spec_version": 1, "name": "strict", "bandwidth": [{"suite": "mpi", "name": "allreduce", "min": 1e6}]}' >"$T/strict.json"
set +e
"$bin" report "$src/tests/data/report/default_np2.json" --spec "$T/strict.json" -o "$T/judged" >"$T/judged.log" 2>&1
judged=$?
"$bin" report "$T/judged/report.json" --history "$T/h.db" --save-baseline "$T/b.json" -o "$T/again" >"$T/again.log" 2>&1
again=$?
set -e
[[ $judged == 1 ]] || { cat "$T/judged.log"; fail "the strict contract gave exit $judged, not 1"; }
[[ $again == 1 ]] || { cat "$T/again.log"; fail "re-rendered with --history, the failed contract gave exit $again, not 1"; }
grep -q '^#   contract strict: ' "$T/again.log" || { cat "$T/again.log"; fail "the re-render's verdict does not name the contract"; }
echo "ok: a stored contract's FAIL survives report --history --save-baseline"
