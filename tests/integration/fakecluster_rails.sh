#!/usr/bin/env bash
# Rails: four nodes with two data NICs each (fakecluster --rails 2, 200 Mbit/s per NIC), the tcp
# matrix on both rails at once (--tcp-if rails) and a per-pair contract, three runs on one cluster:
#   A healthy, with neighbours and latency beside the matrix: exit 0, report.md has one N x N matrix
#     per rail (eth0, eth1), and neighbours and latency ran on both rails (figures with the rail and
#     each end's interface; the summary gives each rail's latency);
#   B node 2's rail-1 NIC at a quarter of the rate: the contract fails (exit 1) and "What is wrong"
#     names node 2 with its rail-1 interface (PFX-node2:eth1) and nothing else: not its eth0, not
#     another node;
#   C node 2's rail-0 NIC slowed too: the finding names the node (slow on every rail), not a NIC.
# The contract asks 0.12 Gb/s per pair: a 200 Mbit/s NIC carries ~0.18, a 50 Mbit/s one ~0.046.
source "$(dirname "$0")/fakecluster_lib.sh"
bin=$1
fc_start 4 --rails 2 --rate 200mbit
cat >"$OUT/spec.json" <<'J'
{"spec_version": 1, "name": "rails contract", "nodes": 4,
 "bandwidth": [{"suite": "tcp", "name": "bandwidth", "min": 0.12}]}
J
args=(-np 4 "$bin" --suites tcp --tcp-if rails --tcp-time 0.5 --spec "$OUT/spec.json")

# The lines of report.md's "What is wrong" section.
what_is_wrong() { awk '/^## What is wrong/ { on = 1; next } /^## / { on = 0 } on && /^- /' "$1/report.md"; }

rc=0; fc_mpirun 90 "${args[@]}" --tcp-tests matrix,neighbours,latency --tcp-lat-time 0.2 -o "$OUT/a" >"$OUT/a.log" 2>&1 || rc=$?
[[ $rc == 0 ]] || { cat "$OUT/a.log"; fail "healthy run A: exit $rc, expected 0"; }
for rail in "rail 0 (eth0)" "rail 1 (eth1)"; do
  grep -q "TCP pair matrix, $rail" "$OUT/a/report.md" || { grep -n 'matrix' "$OUT/a/report.md"; fail "report.md has no matrix for $rail"; }
done
[[ -z $(what_is_wrong "$OUT/a") ]] || { what_is_wrong "$OUT/a"; fail "run A: something is named wrong on a healthy cluster"; }
for rail in "rail 0 eth0" "rail 1 eth1"; do
  grep -q "TCP latency p50 ($rail), slowest pair" "$OUT/a/report.md" || { grep -n 'latency' "$OUT/a/report.md"; fail "run A: the summary has no latency for $rail"; }
done
python3 - "$OUT/a/report.json" <<'PY' || fail "run A: neighbours or latency did not run on every rail"
import json, sys
r = json.load(open(sys.argv[1]))
for test in ("neighbours", "latency"):
    figs = [x["figure"] for x in r["results"] if x.get("figure") and x["figure"]["parameters"].get("test") == test]
    assert sorted({f["parameters"].get("rail") for f in figs}) == ["0", "1"], (test, [f["parameters"] for f in figs])
    assert all(f["subject"]["iface"] == f["subject"]["dst_iface"] == "eth" + f["parameters"]["rail"] for f in figs), test
PY

# Node 2's eth1 (rail 1) at a quarter: tbf on both ends, as fakecluster --rate-nic sets it.
tc -n "$PFX-node2" qdisc replace dev eth1 root tbf rate 50mbit burst 32768 latency 20ms
tc -n "$PFX-sw" qdisc replace dev d2r1 root tbf rate 50mbit burst 32768 latency 20ms
rc=0; fc_mpirun 90 "${args[@]}" --tcp-tests matrix -o "$OUT/b" >"$OUT/b.log" 2>&1 || rc=$?
[[ $rc == 1 ]] || { cat "$OUT/b.log"; fail "node 2's eth1 slow, run B: exit $rc, expected 1"; }
what_is_wrong "$OUT/b"
mapfile -t lines < <(what_is_wrong "$OUT/b")
[[ ${#lines[@]} == 1 ]] || fail "run B: \"What is wrong\" has ${#lines[@]} lines, expected one (node 2's eth1)"
[[ ${lines[0]} == "- $PFX-node2:eth1: "* ]] || fail "run B: \"What is wrong\" does not name $PFX-node2:eth1 first"
grep -q "suspect eth1's cable, transceiver or switch port" <<<"${lines[0]}" || fail "run B: no cable/transceiver/port suspect"
! grep -qE "eth0|node[013]" <<<"${lines[0]}" || fail "run B: \"What is wrong\" names another NIC or node"
[[ $(cut -f1 "$OUT/b/bad-nodes.txt") == "$PFX-node2" && $(cut -f2 "$OUT/b/bad-nodes.txt") == eth1:* ]] \
  || { cat "$OUT/b/bad-nodes.txt"; fail "run B: bad-nodes.txt does not list node 2 alone, with eth1"; }
python3 - "$OUT/b/report.json" "$PFX" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
pfx = sys.argv[2]
found = [x for x in r["results"] if x["name"] == "finding"]
assert [(f["extra"]["finding"]["subject"], f["host"], f["extra"]["finding"].get("iface")) for f in found] == [("nic", f"{pfx}-node2", "eth1")], [f["reason"] for f in found]
flows = [x for x in r["results"] if x["name"] == "bandwidth" and x["variant"] == "matrix"]
assert sorted({x["figure"]["parameters"]["rail"] for x in flows}) == ["0", "1"], "matrix flows on both rails"
assert all(x["figure"]["subject"]["iface"] == f"eth{x['figure']['parameters']['rail']}" for x in flows), "subjects carry the interface"
print("ok:", found[0]["reason"])
PY

# Node 2's eth0 at a quarter too: slow on every rail, the node is named.
tc -n "$PFX-node2" qdisc replace dev eth0 root tbf rate 50mbit burst 32768 latency 20ms
tc -n "$PFX-sw" qdisc replace dev d2 root tbf rate 50mbit burst 32768 latency 20ms
rc=0; fc_mpirun 90 "${args[@]}" --tcp-tests matrix -o "$OUT/c" >"$OUT/c.log" 2>&1 || rc=$?
[[ $rc == 1 ]] || { cat "$OUT/c.log"; fail "node 2 slow on both rails, run C: exit $rc, expected 1"; }
what_is_wrong "$OUT/c"
mapfile -t lines < <(what_is_wrong "$OUT/c")
[[ ${#lines[@]} == 1 && ${lines[0]} == "- $PFX-node2: "* ]] || fail "run C: \"What is wrong\" does not name node 2 alone, as the node"
grep -q "every pair with it is slow on every rail (eth0, eth1" <<<"${lines[0]}" || fail "run C: not named as slow on every rail"
! what_is_wrong "$OUT/c" | grep -qE "node[013]" || fail "run C: another node is named"
