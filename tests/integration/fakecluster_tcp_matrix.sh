#!/usr/bin/env bash
# Four nodes, node 3 shaped to a quarter of the others' rate: the all-pairs matrix (3 rounds of
# disjoint pairs) marks exactly node 3's pairs as suspects, re-testing each alone confirms them,
# and the finding names host node 3. The run's exit code is 1 because of that finding. Every flow
# with node 3 has node 3's link as its ceiling, and the console and every report say so alike.
# Then, on the same cluster, a sampled matrix (--tcp-pairs random:2: a ring of 4, node 3 meets two
# partners) re-tests node 3 against the one partner it has not met, names node 3 and only it (from
# three partners) in the finding and bad-nodes.txt, and report.md states the coverage.
# usage: fakecluster_tcp_matrix.sh BIN [KEEP_DIR]   KEEP_DIR: where the run's outputs and the slow
#        host's name are kept for the browser test (tests/report/browser)
# Then, on the same cluster, --tcp-tests congestion: the records' CIFs are their own congested /
# isolated figures, the incast into the victim's receiver makes the bandwidth CIF exceed 1, and
# report.md and report.html have the Congestion impact section (docs/congestion.md).
source "$(dirname "$0")/fakecluster_lib.sh"
bin=$1 keep=${2:-}
[[ -z $keep ]] || rm -rf "$keep"
fc_start 4 --rate 100mbit --rate-node 3=25mbit

rc=0
fc_mpirun 120 -np 4 "$bin" --suites tcp --tcp-if eth0 --tcp-tests matrix --tcp-time 1 --tcp-sndbuf 512K \
  -o "$OUT/r" >"$OUT/log" 2>&1 || rc=$?
grep '^# tcp' "$OUT/log" || true
if [[ -n $keep ]]; then
  mkdir -p "$keep" && cp -r "$OUT/r" "$keep/r" && echo "$PFX-node3" >"$keep/slow_host"
fi
[[ $rc == 1 ]] || { cat "$OUT/log"; fail "exit code $rc, expected 1 (a confirmed slow host)"; }

python3 - "$OUT/r" "$PFX" <<'PY'
import json, sys
out, pfx = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(f"{out}/results.jsonl")]
host = lambda i: f"{pfx}-node{i}"
slow = {(host(i), host(3)) for i in range(3)} | {(host(3), host(i)) for i in range(3)}
everyone = {(host(i), host(j)) for i in range(4) for j in range(4) if i != j}

cells = [r for r in recs if r["name"] == "bandwidth" and r["variant"] == "matrix"]
assert {(r["extra"]["src_host"], r["extra"]["dst_host"]) for r in cells} == everyone, "every direction measured once"
assert len(cells) == 12 and all(r["status"] == "passed" for r in cells), [r["reason"] for r in cells]

m = [r for r in recs if r["name"] == "matrix"]
assert len(m) == 1, m
x = m[0]["extra"]
assert x["hosts"] == [host(i) for i in range(4)] and x["rounds"] == 3, x
g = x["goodput_Gbps"]
assert all(g[i][i] is None for i in range(4)) and all(g[i][j] > 0 for i in range(4) for j in range(4) if i != j), g
suspects = {(s["src_host"], s["dst_host"]) for s in x["suspects"]}
assert suspects == slow, f"suspects {sorted(suspects)}, expected exactly node 3's pairs"

retests = [r for r in recs if r["variant"] == "retest"]
assert {(r["extra"]["src_host"], r["extra"]["dst_host"]) for r in retests} == slow, "each suspect re-tested"
assert all(r["extra"]["confirmed"] and r["extra"]["alone"] for r in retests), [r["extra"]["why"] for r in retests]

f = [r for r in recs if r["name"] == "finding"]
assert len(f) == 1, [r["reason"] for r in f]
assert f[0]["extra"]["finding"]["subject"] == "host" and f[0]["extra"]["finding"]["host"] == host(3), f[0]
assert f[0]["status"] == "failed" and host(3) in f[0]["reason"], f[0]
print("ok:", f[0]["reason"])
PY

# Each flow's ceiling and efficiency: the slow node's link bounds every flow with it, and the console,
# report.json, report.md and report.html give the same numbers.
python3 - "$OUT/r" "$OUT/log" "$PFX" "$(dirname "$0")/../report" <<'PY'
import collections, json, re, sys
out, log, pfx = sys.argv[1], sys.argv[2], sys.argv[3]
host = lambda i: f"{pfx}-node{i}"
fig4 = lambda x: f"{x:.0f}" if abs(x) >= 10000 else f"{x:.4g}"  # report's format_figure
flows = [r for r in json.load(open(f"{out}/report.json"))["results"] if r["name"] == "bandwidth"]
assert len(flows) == 12 + 6, len(flows)  # the matrix, and the six re-tests of node 3's pairs
slow, fast = 25e6 * 1448 / 1514 / 1e9, 100e6 * 1448 / 1514 / 1e9  # tbf: rate x 1448 / (1500 + 14)
console = {}
for line in open(log):
    m = re.match(r"# tcp bandwidth (\S+)\s+(\S+) -> (\S+)\s+([\d.]+) Gb/s\s+([\d.]+)% of ([\d.]+) Gb/s", line)
    if m: console[(m[1], m[2], m[3])] = (m[4], m[5], m[6])
sys.path.insert(0, sys.argv[4])
import md_tables
md_rows = collections.defaultdict(list)  # (sender, receiver, test) -> rows of report.md's flows table
for section, heading, head, rows in md_tables.tables(f"{out}/report.md"):
    if heading == "TCP flows":
        for row in rows:
            cells = dict(zip(head, row))
            md_rows[(cells["sender"], cells["receiver"], cells["test"].removesuffix(" (bidirectional)"))].append((cells["ceiling (Gb/s)"], cells["efficiency (%)"]))
html = open(f"{out}/report.html").read()
html_pairs = collections.Counter(re.findall(r'title="[^"]*">([\d.e+]+) <a href="#c\d+">\[\d+\]</a></td><td class="n (?:low|ok)">([\d.]+)</td>', html))
for r in flows:
    f = r["figure"]
    src, dst = f["subject"]["host"], f["subject"]["dst_host"]
    c, eff = f["ceiling"], f["efficiency"]
    assert c["known"], (src, dst, c)
    want = slow if host(3) in (src, dst) else fast
    assert abs(c["value"] - want) < 1e-9, (src, dst, c["value"], want, c["derivation"])
    assert abs(eff - f["value"] / c["value"]) < 1e-12
    got = console.get((f["parameters"]["test"], src, dst))
    assert got == (f"{f['value']:.3f}", f"{eff * 100:.1f}", f"{c['value']:.3f}"), (src, dst, got, f["value"], eff, c["value"])
    rows = md_rows.get((src, dst, f["parameters"]["test"]), [])
    match = [row for row in rows if row[0].startswith(fig4(c["value"]) + " [") and row[1] == f"{eff * 100:.1f}"]
    assert match, (src, dst, rows, c["value"], eff)
    rows.remove(match[0])
    key = (fig4(c["value"]), f"{eff * 100:.1f}")
    assert html_pairs[key] > 0, (src, dst, key, html_pairs)
    html_pairs[key] -= 1
print(f"ok: {len(flows)} flows, the same ceiling and efficiency in console, report.json, report.md and report.html")
PY
# report.md: the matrix, the flows and the checks each in the columns of its kind
python3 "$(dirname "$0")/../report/md_tables.py" "$OUT/r/report.md" --require "TCP pair matrix" --require "TCP flows" ||
  fail "report.md tables"

# Congestion impact on the same cluster: victim node 0 -> node 2 alone, then while nodes 1 and 3 send
# incast into node 2 and all-to-all between them. Each victim record's CIF is its own congested /
# isolated figures (isolated / congested for bandwidth); the incast shares node 2's 100 Mbit/s link with
# the victim, so its bandwidth CIF is above 1 (about 2-3 measured; asserted > 1.3 for a loaded machine).
rc=0
fc_mpirun 90 -np 4 "$bin" --suites tcp --tcp-if eth0 --tcp-tests congestion --tcp-time 1 --tcp-lat-time 0.5 \
  --tcp-sndbuf 512K -o "$OUT/cg" >"$OUT/cg.log" 2>&1 || rc=$?
[[ $rc == 0 ]] || { cat "$OUT/cg.log"; fail "congestion run: exit $rc, expected 0"; }
python3 - "$OUT/cg" "$PFX" <<'PY'
import json, sys
out, pfx = sys.argv[1], sys.argv[2]
recs = [r for r in json.load(open(f"{out}/report.json"))["results"] if r["name"] == "congestion"]
assert len(recs) == 6, [(r["variant"], r["status"], r.get("reason")) for r in recs]  # 3 measures x (victim, overall)
victim = f"{pfx}-node0 -> {pfx}-node2"
for r in recs:
    assert r["status"] == "passed", (r["variant"], r.get("reason"))
    x, f = r["extra"], r["figure"]
    assert f["metric"] == "congestion.cif_" + r["variant"] and f["unit"] == "ratio", f
    if x["victim"] == "all victims":
        assert abs(f["value"] - x["mean"]) < 1e-9 and abs(x["worst"] - x["mean"]) < 1e-9, x  # one victim
        continue
    assert x["victim"] == victim, x["victim"]
    want = x["isolated"] / x["congested"] if r["variant"] == "bandwidth" else x["congested"] / x["isolated"]
    assert abs(f["value"] - want) < 1e-9 * want, (r["variant"], f["value"], want)
    print(f"CIF {r['variant']}: {f['value']:.2f} (isolated {x['isolated']:.4g}, congested {x['congested']:.4g} {x['unit']})")
bw = [r for r in recs if r["variant"] == "bandwidth" and r["extra"]["victim"] == victim][0]
assert bw["figure"]["value"] > 1.3, ("the incast into node 2 left the victim's bandwidth alone", bw["extra"])
assert bw["extra"]["congestors"] == 2 and bw["extra"]["congestor_flows"]["incast"] == 2, bw["extra"]
PY
grep -q '^## Congestion impact' "$OUT/cg/report.md" || fail "report.md has no Congestion impact section"
grep -Eq "^\| $PFX-node0 -> $PFX-node2 +\| bandwidth +\|" "$OUT/cg/report.md" || { cat "$OUT/cg/report.md"; fail "report.md: no victim row"; }
grep -q '<h2>Congestion impact</h2>' "$OUT/cg/report.html" || fail "report.html has no Congestion impact section"
# A sampled matrix on the same cluster: node 3 with two random partners, then the third (which passed).
rc=0
fc_mpirun 120 -np 4 "$bin" --suites tcp --tcp-if eth0 --tcp-tests matrix --tcp-time 1 --tcp-sndbuf 512K \
  --tcp-pairs random:2 --tcp-pairs-seed 5 -o "$OUT/s" >"$OUT/s.log" 2>&1 || rc=$?
[[ $rc == 1 ]] || { cat "$OUT/s.log"; fail "sampled matrix: exit code $rc, expected 1 (a confirmed slow host)"; }
grep -q '^# plan: .*matrix pairs random:2 seed 5' "$OUT/s.log" || { cat "$OUT/s.log"; fail "sampled matrix: the plan line names neither the pairs nor the seed"; }
[[ $(cut -f1 "$OUT/s/bad-nodes.txt") == "$PFX-node3" ]] || { cat "$OUT/s/bad-nodes.txt"; fail "sampled matrix: bad-nodes.txt does not list node 3 alone"; }
grep -q '8 of 12 directed pairs measured (random:2, seed 5); a pair not measured may be slow unseen' "$OUT/s/report.md" \
  || fail "sampled matrix: report.md does not state the coverage"
python3 - "$OUT/s" "$PFX" <<'PY'
import json, sys
out, pfx = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(f"{out}/results.jsonl")]
host = lambda i: f"{pfx}-node{i}"
cells = [r for r in recs if r["name"] == "bandwidth" and r["variant"] == "matrix"]
assert len(cells) == 8, len(cells)  # a ring of 4: 4 pairs, both directions
met = {r["extra"]["dst_host"] for r in cells if r["extra"]["src_host"] == host(3)}
assert len(met) == 2, met
retests = [r for r in recs if r["variant"] == "retest"]
extra = {(r["extra"]["src_host"], r["extra"]["dst_host"]) for r in retests if r["extra"]["partner"] == "a partner that passed"}
(unmet,) = {host(i) for i in range(3)} - met
# Both directions with the partner node 3 had not met; one only where that partner was itself slow on
# the other side (a false suspect on a loaded machine), which plan_retests does not take as a reference.
assert extra and extra <= {(host(3), unmet), (unmet, host(3))}, extra
assert all(r["extra"]["confirmed"] for r in retests), [(r["extra"]["src_host"], r["extra"]["dst_host"], r["extra"]["why"]) for r in retests]
f = [r for r in recs if r["name"] == "finding"]
assert len(f) == 1 and f[0]["extra"]["finding"]["host"] == host(3), [r["reason"] for r in f]
assert "3 partners" in f[0]["reason"], f[0]["reason"]
m = [r for r in recs if r["name"] == "matrix"][0]["extra"]
assert m["pairs"] == "random:2" and m["pairs_seed"] == 5 and m["directed_pairs_measured"] == 8, m
print("ok: sampled matrix:", f[0]["reason"])
PY
