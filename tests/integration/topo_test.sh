#!/usr/bin/env bash
# The topo suite and --topology-xml through the real binary: offline analysis of topology files
# (exit 0, matrix and findings; exit 2 and one line for a bad file), and live discovery as a
# singleton and under mpirun, checked in report.json.
# Usage: topo_test.sh BINARY DATA_DIR
source "$(dirname "$0")/lib.sh"
bin=$1 data=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Offline: an hwloc XML v1 export and an NCCL topology file.
"$bin" --topology-xml "$data/juwels-cluster-gpu-4xv100.xml" >"$out/juwels" 2>&1 || { cat "$out/juwels"; fail "juwels exit $?"; }
grep -q "^GPU0   X      PIX    SYS    SYS    NODE   NODE   NODE   NODE   PIX    SYS" "$out/juwels" || { cat "$out/juwels"; fail "juwels matrix row"; }
grep -q "^Findings" "$out/juwels" || fail "juwels: no findings section"
"$bin" --topology-xml "$data/aws-g4dn-metal-8xt4.xml" >"$out/aws" 2>&1 || fail "aws exit $?"
grep -q "\[warning\] .*nearest RDMA-capable NIC SYS away" "$out/aws" || { cat "$out/aws"; fail "aws: gpu_nic_sys finding"; }
"$bin" --topology-xml "$data/nccl-azure-ndv4-a100.xml" >"$out/azure" 2>&1 || fail "azure exit $?"
grep -q "8 GPU(s), 8 NIC(s)" "$out/azure" || { cat "$out/azure"; fail "azure counts"; }

# Bad files: exit code 2 and exactly one line on stderr.
expect_input_error() {  # FILE WORDS
  local rc=0
  "$bin" --topology-xml "$1" >"$out/stdout" 2>"$out/stderr" || rc=$?
  [[ $rc == 2 ]] || fail "$1: exit $rc, expected 2"
  [[ $(wc -l <"$out/stderr") == 1 ]] || { cat "$out/stderr"; fail "$1: expected one line on stderr"; }
  grep -q "$2" "$out/stderr" || { cat "$out/stderr"; fail "$1: message lacks '$2'"; }
}
expect_input_error "$out/missing.xml" "no such file"
printf '<topology version="2.0"><object type="Machine">' >"$out/truncated.xml"
expect_input_error "$out/truncated.xml" "malformed XML"
: >"$out/empty.xml"
expect_input_error "$out/empty.xml" "empty"

# Live, without mpirun (singleton), with an NCCL_TOPO_FILE that does not describe this machine.
NCCL_TOPO_FILE="$data/nccl-azure-ndv4-a100.xml" "$bin" --suites topo -o "$out/single" >"$out/single.log" 2>&1 ||
  { cat "$out/single.log"; fail "singleton exit $?"; }
grep -q "^# topo: Topology of" "$out/single.log" || { cat "$out/single.log"; fail "console matrix missing"; }
# Live under mpirun: one leader per node discovers; 3 ranks on this one node give one section.
"${MPIRUN[@]}" -np 3 "$bin" --suites topo -o "$out/multi" >"$out/multi.log" 2>&1 || { cat "$out/multi.log"; fail "mpirun exit $?"; }

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for run, nccl in (("single", True), ("multi", False)):
    rep = json.load(open(f"{out}/{run}/report.json"))
    topo = rep["topology"]
    assert len(topo) == 1, f"{run}: {list(topo)}"
    host, sec = next(iter(topo.items()))
    assert sec["hostname"] == host and sec["format"] == "live", sec["hostname"]
    assert sec["cpu"]["packages"] >= 1 and sec["cpu"]["pus"] >= 1, sec["cpu"]
    for d in sec["gpus"] + sec["nics"]:
        bus = d["bus_id"]
        assert len(bus) == 12 and bus[4] == ":" and bus[7] == ":" and bus[10] == ".", bus
    assert len(sec["pairs"]) == len(sec["gpus"]) * (len(sec["gpus"]) - 1) // 2 + len(sec["gpus"]) * len(sec["nics"])
    for p in sec["pairs"]:
        assert set(p) >= {"a", "b", "class"} and p["class"] in ("PIX", "PXB", "PHB", "NODE", "SYS"), p
    nodes = [r for r in rep["results"] if r["suite"] == "topo" and r["name"] == "node"]
    assert len(nodes) == 1 and nodes[0]["host"] == host and nodes[0]["status"] == "passed", nodes
    assert nodes[0]["extra"]["gpus"] == len(sec["gpus"]) and nodes[0]["extra"]["nics"] == len(sec["nics"])
    kinds = {f.get("kind") for f in rep["findings"]}
    seen = [(f.get("node"), f.get("kind"), f.get("message")) for f in rep["findings"]]
    assert len(seen) == len(set(seen)), f"{run}: a finding appears twice: {seen}"
    for f in rep["findings"]:
        assert f["severity"] in ("info", "warning", "error") and f["message"].endswith("."), f
    assert ("nccl_disagrees" in kinds) == nccl, f"{run}: {kinds}"
    lines = [json.loads(l) for l in open(f"{out}/{run}/results.jsonl")]
    assert any(l["suite"] == "topo" for l in lines), "topo record not streamed to results.jsonl"
print("ok: topo offline, singleton and mpirun")
PY
