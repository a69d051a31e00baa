#!/usr/bin/env bash
# Verdicts and baselines on four nodes at 1 Gbit/s, three runs shared by every assertion:
#   A healthy, with a per-pair contract and --save-baseline: PASS, exit 0; `report --spec` on its
#     report.json gives the same verdicts and exit code;
#   B healthy again, against A's baseline: no figure SLOWER, exit 0; B2 the same while CPU hogs load
#     the machine: still no SLOWER, and the busy hosts are named;
#   C node 3's link halved (500 Mbit/s), the contract and A's baseline: the contract FAILs naming
#     node 3, SLOWER on exactly the goodput figures that involve node 3 (a latency figure without it
#     may move on this shared VM: a warning, and it blames nobody), "What is wrong" names node 3 first,
#     JUnit test names the same as in A (no measured sizes in them); bad-nodes.txt and report.md's
#     Slurm lines list node 3 alone (A: an empty bad-nodes.txt).
# In each run, and in `report --spec` with a contract run A does not meet, every output and the exit
# code give the same one verdict.
# And a spec typo exits 2 before anything runs. TCP latency is judged too. On a quiet 2-core machine
# its median moves between ~10 and ~12 us, and the rule for times (ci/SPEC.md: the default spread
# widened by the figure's own band, and the band check) calls none of that SLOWER (0 of 56 comparisons
# between 8 quiet runs). But the four fake nodes and their MPI progress share two CPUs, and when other
# work takes a core, a pair's whole round can sit at ~20-26 us (p5 19 us against 9.8): 19 of 44
# comparisons of such a run against a quiet one had a latency figure SLOWER, and the host load then
# read 6 % "other work" (it now reads ~26 % for such a loop: docs/reports.md). No rule on one pair of
# runs tells that from a real slowdown (ci/SPEC.md, "How often the rule is right"); so in the unchanged
# run B a latency figure may be SLOWER (exit 1, FAIL), with a warning: no goodput figure may, and no
# node may be blamed for it (in the CI of stop 54 run B exited non-zero here). The contract asks 0.7 Gb/s per
# pair: a halved pair reaches ~0.48, a healthy one 0.8-0.95, and under ASan on 2 busy cores one healthy
# matrix pair once fell to 0.796, so 0.8 would judge the machine's load, not the link.
source "$(dirname "$0")/fakecluster_lib.sh"
bin=$1
fc_start 4 --rate 1gbit
cat >"$OUT/spec.json" <<'J'
{"spec_version": 1, "name": "fc contract", "nodes": 4,
 "bandwidth": [{"suite": "tcp", "name": "bandwidth", "min": 0.7}],
 "homogeneity": {"figures": [{"suite": "tcp", "name": "matrix", "max_spread_pct": 25}]}}
J
args=(-np 4 "$bin" --suites topo,tcp --tcp-if eth0 --tcp-tests neighbours,matrix,latency --tcp-time 1)

# A spec typo: exit 2, one line with the valid choices, nothing measured.
sed 's/"name": "bandwidth"/"name": "bandwith"/' "$OUT/spec.json" >"$OUT/typo.json"
rc=0; fc_mpirun 60 "${args[@]}" --spec "$OUT/typo.json" -o "$OUT/t" >"$OUT/t.log" 2>&1 || rc=$?
[[ $rc == 2 ]] || { cat "$OUT/t.log"; fail "spec typo: exit $rc, expected 2"; }
grep -q "bandwidth\[0\].name: 'bandwith' is not a test of suite tcp (valid: bandwidth," "$OUT/t.log" || { cat "$OUT/t.log"; fail "typo message"; }
[[ ! -e $OUT/t/results.jsonl ]] || fail "a spec typo must stop the run before it measures"

rc=0; fc_mpirun 180 "${args[@]}" --spec "$OUT/spec.json" --save-baseline "$OUT/base.json" -o "$OUT/a" >"$OUT/a.log" 2>&1 || rc=$?
[[ $rc == 0 ]] || { cat "$OUT/a.log"; fail "healthy run A: exit $rc, expected 0"; }
rc_off=0; "$bin" report "$OUT/a/report.json" --spec "$OUT/spec.json" -o "$OUT/a-off" >"$OUT/a-off.log" 2>&1 || rc_off=$?
[[ $rc_off == 0 ]] || { cat "$OUT/a-off.log"; fail "report --spec on run A: exit $rc_off, expected 0 as live"; }

# The run's one verdict: report.md's first line, the html banner, report.json, junit.xml, metrics.prom
# and the exit code say the same (report/judge/run_verdict.hpp).
verdict_agrees() {  # DIR EXIT_CODE VERDICT...: the outputs in DIR say one of VERDICT, as the exit code does
  local dir=$1 code=$2; shift 2
  python3 - "$dir" "$code" "$@" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
d, code, allowed = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
md = open(f"{d}/report.md").read()
html = open(f"{d}/report.html").read()
said = {
    "report.md": re.search(r"\*\*Verdict: ([A-Z]+)\*\*", md).group(1),
    "report.html": re.search(r'<header class="verdict ([A-Z]+)"', html).group(1),
    "report.json": json.load(open(f"{d}/report.json"))["extra"]["run_verdict"]["verdict"],
    "junit.xml": ET.parse(f"{d}/junit.xml").getroot().find("./testsuite[@name='verdict']/testcase").get("name").split()[-1],
    "metrics.prom": re.search(r'gpunet_run_verdict\{verdict="([A-Z]+)"\} 1', open(f"{d}/metrics.prom").read()).group(1),
}
assert len(set(said.values())) == 1 and said["report.md"] in allowed, (d, said, allowed)
want = {"PASS": 0, "WARN": 0, "FAIL": 1, "INCOMPLETE": 4}[said["report.md"]]
assert want == code, (d, said, "exit", code)
PY
}
verdict_agrees "$OUT/a" 0 PASS WARN || fail "run A: the outputs disagree on the verdict"
verdict_agrees "$OUT/a-off" 0 PASS WARN || fail "report --spec on run A: the outputs disagree on the verdict"
# A healthy cluster against a contract it does not meet (a pair rate no 1 Gbit/s link reaches): FAIL
# everywhere, the banner included, and the reason names the contract.
sed 's/"min": 0.7/"min": 0.99/' "$OUT/spec.json" >"$OUT/strict.json"
rc_strict=0; "$bin" report "$OUT/a/report.json" --spec "$OUT/strict.json" -o "$OUT/a-strict" >"$OUT/a-strict.log" 2>&1 || rc_strict=$?
verdict_agrees "$OUT/a-strict" "$rc_strict" FAIL || { cat "$OUT/a-strict.log"; fail "a failed contract on a healthy cluster: not FAIL everywhere"; }
grep -qF -- '- contract fc contract: 1 of 3 promises failed (bandwidth\[0\] tcp/bandwidth' "$OUT/a-strict/report.md" ||
  { head -8 "$OUT/a-strict/report.md"; fail "report.md does not give the failed contract as the reason"; }
grep -q '^# Verdict: FAIL' "$OUT/a-strict.log" || fail "the console does not end with the verdict"

# Run A judged again offline (no cluster): a nic speed promise judges the interface that carried the
# traffic (each namespace's eth0, with its own speed), never a PCI NIC of the machine; a latency limit
# names its measure in the words of the latency table (half the round trip), and the round-trip limit
# judges twice the figure.
cat >"$OUT/truths.json" <<'J'
{"spec_version": 1, "nic": {"speed_Gbps": 1},
 "latency": [{"suite": "tcp", "name": "latency", "max_p99_us": 100000},
             {"suite": "tcp", "name": "latency", "max_p99_rtt_us": 100000}]}
J
"$bin" report "$OUT/a/report.json" --spec "$OUT/truths.json" -o "$OUT/a-truths" >"$OUT/a-truths.log" 2>&1 || true
python3 - "$OUT/a-truths" "$PFX" <<'PY' || { cat "$OUT/a-truths.log"; fail "run A re-judged: the nic or latency promises do not judge what they should"; }
import json, sys
d, pfx = sys.argv[1], sys.argv[2]
v = json.load(open(f"{d}/report.json"))["extra"]["verdicts"]
nic, half, whole = v
print("nic promise:", nic["status"], nic["measured"], "|", nic["reason"][:160])
assert nic["status"] == "PASS" and nic["reason"].startswith(f"the interfaces that carried the run's traffic ({pfx}-node0 eth0"), nic
assert half["limit"] == "<= 100000 us, p99 of half the round trip" and ", p99 of half the round trip (" in half["measured"], half
assert whole["limit"] == "<= 100000 us, p99 of the round trip", whole
h = float(half["measured"].split()[0]); w = float(whole["measured"].split()[0])
assert abs(w - 2 * h) <= 0.01 * w + 0.01, (half["measured"], whole["measured"])
md = open(f"{d}/report.md").read()
assert "half the round trip of a ping-pong" in md, "the latency table does not name its measure"
print("latency promise:", half["measured"], "|", whole["measured"])
PY

rc_b=0; fc_mpirun 180 "${args[@]}" --baseline "$OUT/base.json" -o "$OUT/b" >"$OUT/b.log" 2>&1 || rc_b=$?
# Exit 0; or 1 when only latency figures are SLOWER (checked with run B's rows below): see the header.
[[ $rc_b == 0 || $rc_b == 1 ]] || { cat "$OUT/b.log"; fail "unchanged rerun B: exit $rc_b, expected 0"; }

# B2: unchanged again, while CPU hogs (other work) load both cores: a busy host is not a slower network.
# No figure SLOWER (UNCERTAIN, with the host and its load as the reason), and the report names the busy
# hosts (report/judge/host_load.hpp). Before host load was measured, such a rerun gave 7 SLOWER figures.
hogs=()
for _ in 1 2 3 4; do timeout 150 sh -c 'while :; do :; done' & hogs+=($!); done
rc=0; fc_mpirun 240 "${args[@]}" --baseline "$OUT/base.json" -o "$OUT/b2" >"$OUT/b2.log" 2>&1 || rc=$?
kill "${hogs[@]}" 2>/dev/null || true
wait "${hogs[@]}" 2>/dev/null || true
python3 - "$OUT/b2/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for x in r["results"]:
    if "host_load" in x.get("extra", {}):
        print("busy hosts run:", x["host"], x["name"], x["extra"]["host_load"]["summary"])
rows = r["extra"]["baseline"]["rows"]
print("busy hosts run:", sum(1 for x in rows if x["change"] == "UNCERTAIN"), "UNCERTAIN of", len(rows))
PY
[[ $rc == 0 ]] || { cat "$OUT/b2.log"; fail "unchanged rerun on busy hosts: exit $rc, expected 0 (a busy host is not a regression)"; }
grep -q "^- hosts: every one of the 4 hosts was busy with other work during .*tcp: a cause common to the hosts" "$OUT/b2/report.md" ||
  { head -12 "$OUT/b2/report.md"; fail "report.md does not say the hosts were busy"; }
verdict_agrees "$OUT/b2" 0 PASS WARN || fail "run B2: the outputs disagree on the verdict"

# Halve node 3's link in both directions (tbf as launch/fakecluster sets it: 4 ms of burst).
tc -n "$PFX-node3" qdisc replace dev eth0 root tbf rate 500mbit burst 250000 latency 20ms
tc -n "$PFX-sw" qdisc replace dev d3 root tbf rate 500mbit burst 250000 latency 20ms
rc=0; fc_mpirun 180 "${args[@]}" --spec "$OUT/spec.json" --baseline "$OUT/base.json" -o "$OUT/c" >"$OUT/c.log" 2>&1 || rc=$?
[[ $rc == 1 ]] || { cat "$OUT/c.log"; fail "halved node 3, run C: exit $rc, expected 1"; }
rc_off=0; "$bin" report "$OUT/c/report.json" --spec "$OUT/spec.json" --baseline "$OUT/base.json" -o "$OUT/c-off" >"$OUT/c-off.log" 2>&1 || rc_off=$?
[[ $rc_off == 1 ]] || { cat "$OUT/c-off.log"; fail "report --spec --baseline on run C: exit $rc_off, expected 1 as live"; }
grep -A3 '^# What is wrong:' "$OUT/c.log" | head -4
if [[ $rc_b == 0 ]]; then verdict_agrees "$OUT/b" 0 PASS WARN || fail "run B: the outputs disagree on the verdict"
else verdict_agrees "$OUT/b" 1 FAIL || fail "run B: the outputs disagree on the verdict"; fi
verdict_agrees "$OUT/c" 1 FAIL || fail "run C: the outputs disagree on the verdict"
verdict_agrees "$OUT/c-off" 1 FAIL || fail "report --spec --baseline on run C: the outputs disagree on the verdict"

python3 - "$OUT" "$PFX" "$rc_b" <<'PY'
import json, sys, xml.etree.ElementTree as ET
out, pfx = sys.argv[1], sys.argv[2]
n3 = f"{pfx}-node3"
rep = lambda d: json.load(open(f"{out}/{d}/report.json"))
a, aoff, b, c, coff = rep("a"), rep("a-off"), rep("b"), rep("c"), rep("c-off")

# A: every directed pair judged, all meet it; offline gives the same table.
va = a["extra"]["verdicts"]
assert [v["status"] for v in va] == ["PASS", "PASS", "PASS"], va
assert va[0]["promise"] == "nodes" and va[0]["measured"] == "4 nodes", va[0]
assert va[1]["reason"].startswith("all 12 directed pairs meet it"), va[1]
assert aoff["extra"]["verdicts"] == va, (aoff["extra"]["verdicts"], va)

# B: an unchanged rerun has no SLOWER goodput figure; goodput figures of every pair are compared. A
# latency figure may be SLOWER (see the header); it names no node, and the exit code is 1 only for it.
rows_b = b["extra"]["baseline"]["rows"]
slower_b = [r for r in rows_b if r["change"] == "SLOWER"]
assert not [r for r in slower_b if not r["figure"].startswith("tcp/latency/")], [(r["figure"], r["change_pct"], r["reason"]) for r in slower_b]
for r in slower_b:
    print("warning: unchanged run B: a latency figure is SLOWER:", r["figure"], r["reason"])
assert (1 if slower_b else 0) == int(sys.argv[3]), ("run B's exit code", sys.argv[3], len(slower_b))
assert open(f"{out}/b/bad-nodes.txt").read() == "", "unchanged run B blames a node"
assert len([r for r in rows_b if "goodput_Gbps" in r["figure"] and "matrix" in r["figure"]]) == 12, [r["figure"] for r in rows_b]
lat = [r for r in rows_b if r["figure"].startswith("tcp/latency/")]
assert len(lat) == 4 and all(r["method"] == "U test" for r in lat), [(r["figure"], r["method"]) for r in lat]

# C: the contract fails per pair and names node 3; homogeneity names it as the outlier.
vc = c["extra"]["verdicts"]
vc = vc[1:]  # the node count promise holds: 4 nodes
assert [v["status"] for v in vc] == ["FAIL", "FAIL"], vc
assert vc[0]["reason"].startswith(f"6 of 12 directed pairs below 0.7 Gb/s, all involving {n3}; lowest "), vc[0]
assert vc[0]["hosts"] == [n3] and vc[1]["hosts"] == [n3], vc
assert coff["extra"]["verdicts"][1:] == vc, "offline re-judging differs from the live run"

# SLOWER on exactly the pair figures (neighbours, matrix) that involve node 3.
pairs = [r for r in c["extra"]["baseline"]["rows"] if "goodput_Gbps" in r["figure"] and ("/matrix " in r["figure"] or "/neighbours " in r["figure"])]
slower = {r["figure"] for r in pairs if r["change"] == "SLOWER"}
# A figure measured while other work kept the machine busy (another job on this host) is UNCERTAIN
# by design (report/judge/host_load.hpp); it counts here only with that reason, and the run says so.
busy = {r["figure"] for r in pairs if r["change"] == "UNCERTAIN" and r["reason"].startswith("measured while ")}
if busy:
    print("warning: run C ran on a busy machine:", len(busy), "figures UNCERTAIN instead of SLOWER")
with3 = {r["figure"] for r in pairs if n3 in r["hosts"]}
# Every pair figure with node 3 is SLOWER, or UNCERTAIN (busy machine, or a noisy baseline under ASan
# on 2 cores); at least 6 of them are SLOWER; none without node 3 is (checked below).
unsure = {r["figure"] for r in pairs if r["change"] == "UNCERTAIN" and n3 in r["hosts"]}
assert slower <= with3 and with3 <= slower | unsure and len(with3) >= 6, (sorted(slower), sorted(unsure), sorted(with3))
assert len(slower) >= 6 or busy, ("too few SLOWER", sorted(slower), sorted(unsure))
# No goodput figure without node 3 is SLOWER. A latency figure without it may be, with a warning: the
# four ping-pong processes of a round keep this 2-core VM busy by themselves (4 x 42 % CPU measured),
# so another job's second here moves a median from ~11 to ~23 us and no host load can show it (once in
# CI: +105 % on node1 <-> node2). It blames neither end: bad-nodes.txt holds node 3 alone (below).
others = [r for r in c["extra"]["baseline"]["rows"] if r["change"] == "SLOWER" and n3 not in r["hosts"]]
assert not [r for r in others if not r["figure"].startswith("tcp/latency/")], [(r["figure"], r["reason"]) for r in others]
for r in others:
    print("warning: run C: a latency figure without node 3 is SLOWER:", r["figure"], r["reason"])

# JUnit: the same test names in both runs (metric and subject, no measured sizes).
names = lambda d, s: sorted(t.get("name") for t in ET.parse(f"{out}/{d}/junit.xml").getroot().findall(f"./testsuite[@name='{s}']/testcase"))
assert names("b", "baseline") == names("c", "baseline"), (names("b", "baseline"), names("c", "baseline"))
assert all(" B " not in n and "MiB" not in n for n in names("c", "baseline")), names("c", "baseline")
print("ok:", vc[0]["reason"])
PY
grep -q "^#   $PFX-node3: every directed pair with it" "$OUT/c.log" || { cat "$OUT/c.log"; fail "the culprit is not named first"; }
grep -q "^- $PFX-node3: every directed pair with it" "$OUT/c/report.md" || fail "report.md does not name the culprit at the top"
# The list for the scheduler: node 3 alone in run C (bad-nodes.txt and the Slurm lines), none in A.
[[ -e $OUT/a/bad-nodes.txt && ! -s $OUT/a/bad-nodes.txt ]] || fail "healthy run A: bad-nodes.txt missing or not empty"
[[ $(cut -f1 "$OUT/c/bad-nodes.txt") == "$PFX-node3" ]] || { cat "$OUT/c/bad-nodes.txt"; fail "run C: bad-nodes.txt does not list node 3 alone"; }
grep -q "^scontrol update NodeName=$PFX-node3 State=DRAIN Reason='gpunet-bench: every directed pair with it" "$OUT/c/report.md" \
  && grep -q -- "--exclude=$PFX-node3\$" "$OUT/c/report.md" || fail "run C: report.md lacks the Slurm lines for node 3"
# The hosts' load in each run, for the log (the counters records' extra.host_load).
for d in a b b2 c; do
  python3 - "$OUT/$d/report.json" "$d" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
loads = [(x["name"], x["extra"]["host_load"]["others_pct"]) for x in r["results"] if "host_load" in x.get("extra", {})]
print(f"host load, run {sys.argv[2]}:", ", ".join(f"{s} {p:.0f}%" for s, p in loads))
PY
done
