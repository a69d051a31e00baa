#!/usr/bin/env bash
# A racked fake cluster and --fabric: 8 nodes under 2 leaf switches (fakecluster --racks 2), node
# links at 100 Mbit/s, leaf1's uplink shaped to 30 Mbit/s. The tcp matrix with the cluster's own
# topology.conf (fakecluster topology) must name the uplink in "What is wrong" (md and html) and blame
# no node; with two racks every pair between them crosses both uplinks, so the report names both and
# says it cannot tell which; in 4 racks of 2, with node 7's switch port slowed as well, the slow uplink
# (alone among the uplinks) and node 7 are named and nothing else (but for a pair that a loaded host
# slowed in the matrix and in its re-test: a pair finding of its own, named in the uplink's sentence, blaming
# no node). The same cluster with
# healthy uplinks names nothing and exits 0, and sampled (--tcp-pairs random:2) its pairs are drawn by
# leaf: every node meets the other rack, some pairs stay inside one. The fabric test (--tcp-tests fabric) on that cluster, its
# nodes at 50 Mbit/s and uplinks at 200 Mbit/s (4 nodes x 50 Mbit/s), reads about 1 per uplink and
# keeps a max_oversubscription 1.2 promise; with the uplinks at 100 Mbit/s (2:1) it reads about 2 and
# the promise FAILs naming both uplinks. (At 100 Mbit/s per node the 1:1 case read 1.3-1.4 on this
# 2-core machine under load: the bridges' forwarding, not the uplinks, was the limit.)
source "$(dirname "$0")/fakecluster_lib.sh"
bin=$1
start=$SECONDS
# Every suspect is re-tested (--tcp-retest-rounds 16; about 9 rounds for the 33 suspects of the slow
# uplink's cluster): a pair inside a leaf that a loaded host slowed in the matrix, and that the default
# 4 re-test rounds leave unconfirmed, stays a slow pair that no link explains (CI saw this once: 33
# suspects, 26 re-tested; the uplinks went unnamed then, and are named beside such a pair now).
args=(--suites tcp --tcp-if eth0 --tcp-tests matrix --tcp-time 0.5 --tcp-bidir --tcp-sndbuf 512K --tcp-retest-rounds 16)

fc_start 8 --racks 2 --rate 100mbit --rate-uplink 1=30mbit
"$FC" topology --prefix "$PFX" >"$OUT/topology.conf"
grep -qx "SwitchName=leaf1 Nodes=$PFX-node\[4-7\]" "$OUT/topology.conf" || { cat "$OUT/topology.conf"; fail "topology.conf"; }
tc -n "$PFX-leaf1" qdisc show dev up0 | grep -q "rate 30Mbit" || fail "leaf1's uplink (leaf side) is not shaped"
tc -n "$PFX-sw" qdisc show dev u1 | grep -q "rate 30Mbit" || fail "leaf1's uplink (spine side) is not shaped"
rc=0
fc_mpirun 120 -np 8 "$bin" "${args[@]}" --fabric "$OUT/topology.conf" -o "$OUT/slow" >"$OUT/slow.log" 2>&1 || rc=$?
grep '^# tcp matrix:' "$OUT/slow.log" || true
[[ $rc == 1 ]] || { cat "$OUT/slow.log"; fail "slow uplink: exit code $rc, expected 1 (slow pairs confirmed)"; }

python3 - "$OUT/slow" "$PFX" <<'PY'
import sys
out, pfx = sys.argv[1], sys.argv[2]
md = open(f"{out}/report.md").read()
assert "## What is wrong" in md, "report.md has no What is wrong section"
wrong = md.split("## What is wrong", 1)[1].split("\n## ", 1)[0]
lines = [l[2:] for l in wrong.splitlines() if l.startswith("- ")]
uplink = [l for l in lines if "leaf1 ↔ spine" in l]
assert len(uplink) == 1, f"What is wrong does not name leaf1's uplink: {lines}"
assert uplink[0].startswith("leaf0 ↔ spine or leaf1 ↔ spine: 32 of 32 pairs crossing them at "), uplink[0]
assert "not the nodes" in uplink[0], uplink[0]
blamed = [l for l in lines if l.startswith(f"{pfx}-node") or l.startswith(f"host {pfx}-node")]
assert not blamed, f"nodes blamed besides the uplink: {blamed}"
# A pair a loaded host slowed in the matrix and in its re-test too stays a pair finding, and the uplink's
# sentence counts it; no other pair is listed.
stray = [l for l in lines if l.startswith("pair ")]
if stray:
    print("stray pairs:", stray)
    n = len(stray)
    assert f"; {n} slow pair{'' if n == 1 else 's'} that no link explains" in uplink[0], (stray, uplink[0])
assert len(lines) == 1 + len(stray), f"more than the uplink and its stray pairs: {lines}"
page = open(f"{out}/report.html").read()
assert "leaf0 ↔ spine or leaf1 ↔ spine: 32 of 32 pairs" in page, "report.html lacks the finding"
print("ok:", uplink[0])
PY
# The same run stored without its fabric: "What is wrong" lists the pairs and says what a fabric file
# would tell; `gpunet-bench report` with --fabric then names the uplinks (no cluster needed).
python3 - "$OUT/slow/report.json" "$OUT/bare.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
rep["extra"].pop("fabric")
json.dump(rep, open(sys.argv[2], "w"))
PY
"$bin" report "$OUT/bare.json" -o "$OUT/bare" >/dev/null 2>&1 || true
grep -Eq "^- [0-9]+ slow pairs name no single node; with --fabric FILE \(Slurm's topology.conf\) the report could tell whether they share a switch uplink$" \
  "$OUT/bare/report.md" || { sed -n '/## What is wrong/,/^## [^W]/p' "$OUT/bare/report.md" | head; fail "no line on what a fabric file would tell"; }
rc=0
"$bin" report "$OUT/bare.json" --fabric "$OUT/topology.conf" -o "$OUT/again" >/dev/null 2>&1 || rc=$?
[[ $rc == 1 ]] || fail "report --fabric exited $rc, expected 1"
grep -q "^- leaf0 ↔ spine or leaf1 ↔ spine: 32 of 32 pairs" "$OUT/again/report.md" || fail "report --fabric does not name the uplinks"
echo "ok: without the fabric one line says what it would tell; report --fabric names the uplinks"
# The same run with one pair inside leaf0 made slow and never re-tested (what a loaded host can leave):
# the uplinks are still named, and their sentence counts the pair that no link explains.
python3 - "$OUT/bare.json" "$OUT/stray.json" "$PFX" <<'PY'
import json, sys
rep, pfx = json.load(open(sys.argv[1])), sys.argv[3]
m = next(r for r in rep["results"] if r["suite"] == "tcp" and "goodput_Gbps" in r.get("extra", {}) and "hosts" in r["extra"])
hosts = m["extra"]["hosts"]
a, b = hosts.index(f"{pfx}-node1"), hosts.index(f"{pfx}-node2")
m["extra"]["goodput_Gbps"][a][b] = 0.001
m["extra"]["retests"] = [t for t in m["extra"].get("retests", []) if (t["src_host"], t["dst_host"]) != (hosts[a], hosts[b])]
json.dump(rep, open(sys.argv[2], "w"))
PY
"$bin" report "$OUT/stray.json" --fabric "$OUT/topology.conf" -o "$OUT/stray" >/dev/null 2>&1 || true
grep -q "^- leaf0 ↔ spine or leaf1 ↔ spine: 32 of 32 pairs.*; 1 slow pair that no link explains ($PFX-node1 → $PFX-node2): suspect an uplink" \
  "$OUT/stray/report.md" || { sed -n '/## What is wrong/,/^## [^W]/p' "$OUT/stray/report.md" | head; fail "a stray slow pair hides the uplinks"; }
echo "ok: a stray slow pair inside a leaf does not hide the uplinks"
"$FC" down --prefix "$PFX"
PFX=""

# Four racks of two: only leaf1's uplink carries exactly the pairs through it; node 7's switch port
# (what node 7 receives, unseen by the node) is slowed as well, so the smallest set of links that
# explains the slow pairs is the uplink and node 7: both are named, and nothing else.
fc_start 8 --racks 4 --rate 100mbit --rate-uplink 1=30mbit
tc -n "$PFX-leaf3" qdisc replace dev d7 root tbf rate 30mbit burst 32768 latency 20ms
"$FC" topology --prefix "$PFX" >"$OUT/topology.conf"
rc=0
fc_mpirun 120 -np 8 "$bin" "${args[@]}" --fabric "$OUT/topology.conf" -o "$OUT/four" >"$OUT/four.log" 2>&1 || rc=$?
grep '^# tcp matrix:' "$OUT/four.log" || true
[[ $rc == 1 ]] || { cat "$OUT/four.log"; fail "slow uplink and slow node, 4 racks: exit code $rc, expected 1"; }
python3 - "$OUT/four/report.md" "$PFX" <<'PY'
import sys
md, pfx = open(sys.argv[1]).read(), sys.argv[2]
wrong = md.split("## What is wrong", 1)[1].split("\n## ", 1)[0]
lines = [l[2:] for l in wrong.splitlines() if l.startswith("- ")]
up = [l for l in lines if l.startswith("leaf1 ↔ spine: 24 of 24 pairs crossing it at ")]
node = [l for l in lines if l.startswith((f"{pfx}-node7: ", f"host {pfx}-node7: "))]
stray = [l for l in lines if l.startswith("pair ")]  # as in the first cluster: counted in the uplink's sentence
n = len(stray)
assert len(up) == 1 and len(node) == 1 and len(lines) == 2 + n, f"expected leaf1's uplink and node 7 alone: {lines}"
assert not n or f"; {n} slow pair{'' if n == 1 else 's'} that no link explains" in up[0], (stray, up[0])
assert up[0].endswith("suspect the uplink, not the nodes"), up[0]
print("ok:", up[0])
print("ok:", node[0])
PY
"$FC" down --prefix "$PFX"
PFX=""

fc_start 8 --racks 2 --rate 50mbit --uplink-rate 200mbit
"$FC" topology --prefix "$PFX" >"$OUT/topology.conf"
rc=0
fc_mpirun 120 -np 8 "$bin" "${args[@]}" --fabric "$OUT/topology.conf" -o "$OUT/ok" >"$OUT/ok.log" 2>&1 || rc=$?
grep '^# tcp matrix:' "$OUT/ok.log" || true
[[ $rc == 0 ]] || { sed -n '/What is wrong/,$p' "$OUT/ok.log"; fail "healthy racked cluster: exit code $rc, expected 0"; }
python3 - "$OUT/ok/report.md" <<'PY'
import sys
md = open(sys.argv[1]).read()
wrong = md.split("## What is wrong", 1)[1].split("\n## ", 1)[0] if "## What is wrong" in md else ""
assert "spine" not in wrong and "node" not in wrong, f"a healthy racked cluster has findings: {wrong}"
PY
echo "ok: healthy racked cluster: nothing named"
# A sampled matrix on the same racked cluster: with --fabric, random partners are drawn by leaf switch,
# one ring edge between the two racks, the next inside one (two racks of 4: each node meets the other
# rack, and nearly every node its own).
rc=0
fc_mpirun 60 -np 8 "$bin" "${args[@]}" --tcp-pairs random:2 --tcp-pairs-seed 5 --fabric "$OUT/topology.conf" \
  -o "$OUT/sampled" >"$OUT/sampled.log" 2>&1 || rc=$?
[[ $rc == 0 ]] || { cat "$OUT/sampled.log"; fail "sampled matrix by rack: exit code $rc, expected 0"; }
grep -q '^# plan: .*matrix pairs random:2 seed 5 across and within leaf switches' "$OUT/sampled.log" ||
  { head -3 "$OUT/sampled.log"; fail "sampled matrix by rack: the plan line does not say so"; }
python3 - "$OUT/sampled" "$PFX" <<'PY'
import json, sys
out, pfx = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(f"{out}/results.jsonl")]
rack = lambda host: int(host.rsplit("node", 1)[1]) // 4
cells = [r for r in recs if r["name"] == "bandwidth" and r["variant"] == "matrix"]
pairs = {frozenset((r["extra"]["src_host"], r["extra"]["dst_host"])) for r in cells}
assert len(pairs) >= 8, pairs  # each of 8 nodes with at least 2 partners
between = [p for p in pairs if len({rack(h) for h in p}) == 2]
hosts = {h for p in pairs for h in p}
alone = [h for h in hosts if not any(h in p for p in between)]
assert not alone, f"nodes that met no node of the other rack: {alone}"
assert 4 <= len(between) < len(pairs), f"{len(between)} of {len(pairs)} pairs between the racks"
(m,) = [r for r in recs if r["name"] == "matrix"]
assert m["extra"]["pairs_across_leaves"] == len(between), (m["extra"]["pairs_across_leaves"], len(between))
want = f"partners drawn across and within leaf switches: {len(between)} of {len(pairs)} pairs between two"
assert want in m["extra"]["coverage"], m["extra"]["coverage"]
assert want in open(f"{out}/report.md").read(), "report.md does not state the coverage by rack"
print(f"ok: {len(pairs)} sampled pairs, {len(between)} of them between the racks, every node across")
PY

# The fabric test: every node of a leaf sends across its uplink at once, both ways.
echo '{"spec_version": 2, "fabric": {"max_oversubscription": 1.2}}' >"$OUT/fabric-spec.json"
fabric_args=(--suites tcp --tcp-if eth0 --tcp-tests fabric --tcp-time 1 --fabric "$OUT/topology.conf" --spec "$OUT/fabric-spec.json")
# check_fabric DIR LOW HIGH: both uplinks' oversubscription within [LOW, HIGH], in fabric.csv and report.md alike.
check_fabric() {
  python3 - "$@" <<'PY'
import csv, json, sys
out, low, high = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
rep = json.load(open(f"{out}/report.json"))
figs = {r["variant"]: r for r in rep["results"] if r.get("figure", {}).get("metric") == "fabric.oversubscription"}
assert sorted(figs) == ["leaf0", "leaf1"], f"fabric figures: {sorted(figs)}"
md = open(f"{out}/report.md").read()
for leaf, r in sorted(figs.items()):
    v = r["figure"]["value"]
    print(f"  {r['extra']['summary']}")
    assert low <= v <= high, f"{leaf}: oversubscription {v:.2f}, expected {low}-{high}"
    assert r["extra"]["summary"] in md, f"report.md lacks {r['extra']['summary']}"
rows = list(csv.DictReader(open(f"{out}/fabric.csv")))
assert len(rows) == 2 and all(low <= float(x["oversubscription"]) <= high for x in rows), rows
assert 'class="chart fabric"' in open(f"{out}/report.html").read(), "report.html has no picture of the fabric"
PY
}
rc=0
fc_mpirun 60 -np 8 "$bin" "${fabric_args[@]}" -o "$OUT/fabric1" >"$OUT/fabric1.log" 2>&1 || rc=$?
grep '^# tcp fabric' "$OUT/fabric1.log" || true
[[ $rc == 0 ]] || { cat "$OUT/fabric1.log"; fail "non-blocking uplinks: exit code $rc, expected 0"; }
check_fabric "$OUT/fabric1" 0.8 1.3 || fail "uplinks at 4 x the node rate do not read about 1"
echo "ok: uplinks as fast as their nodes' sum read about 1:1 and keep the promise"
"$FC" down --prefix "$PFX"
PFX=""

fc_start 8 --racks 2 --rate 50mbit --uplink-rate 100mbit
"$FC" topology --prefix "$PFX" >"$OUT/topology.conf"
rc=0
fc_mpirun 60 -np 8 "$bin" "${fabric_args[@]}" -o "$OUT/fabric2" >"$OUT/fabric2.log" 2>&1 || rc=$?
grep '^# tcp fabric' "$OUT/fabric2.log" || true
[[ $rc == 1 ]] || { cat "$OUT/fabric2.log"; fail "2:1 uplinks with a 1.2 promise: exit code $rc, expected 1"; }
check_fabric "$OUT/fabric2" 1.6 2.5 || fail "uplinks at 2 x the node rate under 4 nodes do not read about 2"
python3 - "$OUT/fabric2/report.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
v = [v for v in rep["extra"]["verdicts"] if v["promise"].startswith("fabric")]
assert len(v) == 1 and v[0]["status"] == "FAIL", v
assert "2 of 2 uplinks above 1.20:1" in v[0]["reason"], v[0]["reason"]
assert "leaf0 ↔ spine" in v[0]["culprit"] and "leaf1 ↔ spine" in v[0]["culprit"], v[0]["culprit"]
print("ok:", v[0]["reason"])
PY
echo "ok: 2:1 uplinks read about 2 and the 1.2 promise fails naming both"
echo "fakecluster_fabric took $((SECONDS - start)) s"
