#!/usr/bin/env bash
# The nccl, pcie and node suites under the real mpirun on a machine without a usable GPU: nccl and
# pcie report `skipped` with the CUDA runtime's reason (or "built without CUDA"), nothing crashes,
# and `node` measures host memory bandwidth for real. Where a GPU is usable, the same run must
# instead pass with verified data. Every suite also gets its traffic-counter record. The singleton
# runs on a pty where the system has script(1), as on a terminal: its node suite draws the progress
# line in place.
# Usage: skip_paths_test.sh BINARY NP HAVE_CUDA   (NP=0: singleton, no mpirun)
source "$(dirname "$0")/lib.sh"
bin=$1 np=$2 have_cuda=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(--suites nccl,pcie,node -b 1K -e 64K -f 8 -n 2 --budget 0.01 --pcie-size 1M --node-size 4M --node-min-time 0.01
      --node-repetitions 2 -o "$out/r" --timeout 60)
if [[ $np == 0 ]] && command -v script >/dev/null; then
  # On a terminal (a pty from script): the progress line is drawn and rewritten in place ("\r").
  script -qec "$(printf '%q ' "$bin" "${args[@]}")" /dev/null >"$out/log" 2>&1 || { cat "$out/log"; fail "singleton run exited $?"; }
  grep -q $'\r\[node\] membw numa[0-9]* read 1 thread  0/[0-9]* (0%)  about [0-9hms]* left\x1b\[K' "$out/log" ||
    { cat -v "$out/log"; fail "no progress line rewritten in place on a terminal"; }
  np=1
elif [[ $np == 0 ]]; then
  "$bin" "${args[@]}" >"$out/log" 2>&1 || { cat "$out/log"; fail "singleton run exited $?"; }
  np=1
else
  "${MPIRUN[@]}" -np "$np" "$bin" "${args[@]}" >"$out/log" 2>&1 || { cat "$out/log"; fail "mpirun -np $np exited $?"; }
fi
cat "$out/log"
grep -Eiq "segmentation|core dumped|terminate called|MPI_ABORT" "$out/log" && fail "the run crashed"
python3 - "$out/r" "$np" "$have_cuda" <<'PY'
import json, sys
out, n, have_cuda = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
rep = json.load(open(f"{out}/report.json"))
res = rep["results"]
def of(suite, name=None):
    return [r for r in res if r["suite"] == suite and (name is None or r["name"] == name)]

def gpu_reason_ok(reason):
    if not have_cuda:
        return reason == "built without CUDA"
    return "cudaGetDeviceCount" in reason or "found 0 devices" in reason

nccl = of("nccl")
assert nccl, "no nccl record"
if all(r["status"] == "skipped" for r in nccl):
    assert len(nccl) == 1 and nccl[0]["name"] == "collectives", nccl
    assert gpu_reason_ok(nccl[0]["reason"]), nccl[0]["reason"]
    assert nccl[0]["ranks"] == n
    pcie = of("pcie")
    assert len(pcie) == 1, f"one pcie record per node, got {pcie}"  # all ranks share one node here
    assert pcie[0]["status"] == "skipped" and gpu_reason_ok(pcie[0]["reason"]), pcie[0]
    node_pcie = of("node", "pcie")
    assert len(node_pcie) == 1 and node_pcie[0]["status"] == "skipped", node_pcie
    print("gpu suites skipped:", nccl[0]["reason"])
else:  # a GPU is usable here: the same run must measure and verify
    for r in nccl + of("pcie"):
        if r["name"] in ("transport", "topology"):
            continue
        assert r["status"] == "passed" and r["check"] == "ok", r

membw = [r for r in of("node") if r["name"].startswith("membw_")]
kernels = {r["name"] for r in membw}
assert kernels == {"membw_read", "membw_write", "membw_copy", "membw_triad"}, kernels
for r in membw:
    assert r["status"] == "passed", r
    assert r["algbw_GBps"] > 0.05, r
    assert r["time_us"]["samples"] == 2, r["time_us"]
    assert r["time_us"]["min"] <= r["time_us"]["p50"] <= r["time_us"]["max"], r["time_us"]
    assert r["extra"]["threads"] >= 1 and "numa_node" in r["extra"], r["extra"]
    assert r["check"] == ("off" if r["name"] == "membw_read" else "ok"), r
    per_pass = {"membw_read": 1, "membw_write": 1, "membw_copy": 2, "membw_triad": 3}[r["name"]]
    assert r["bytes"] == per_pass * 4 * 2**20, r["bytes"]

counters = of("counters")
assert sorted(r["name"] for r in counters) == ["nccl", "node", "pcie"], counters
for r in counters:
    t = r["extra"]["traffic"]
    assert t["duration_s"] >= 0 and t["snapshots"] >= 2, t
    assert "interfaces" in t and "carried_by" in t, t
lines = [json.loads(l) for l in open(f"{out}/results.jsonl")]
assert len(lines) == len(res)
print(f"ok: {len(membw)} membw records, {len(counters)} counters records, {len(res)} records in all")
PY
grep -q "# node membw_copy" "$out/log" || fail "console line for the node suite missing"
