#!/usr/bin/env bash
# Four nodes, node 3 shaped to a quarter of the others' rate: the all-pairs matrix (3 rounds of
# disjoint pairs) marks exactly node 3's pairs as suspects, re-testing each alone confirms them,
# and the finding names host node 3. The run's exit code is 1 because of that finding.
source "$(dirname "$0")/fakecluster_lib.sh"
bin=$1
fc_start 4 --rate 100mbit --rate-node 3=25mbit

rc=0
fc_mpirun 120 -np 4 "$bin" --suites tcp --tcp-if eth0 --tcp-tests matrix --tcp-time 1 --tcp-sndbuf 512K \
  -o "$OUT/r" >"$OUT/log" 2>&1 || rc=$?
grep '^# tcp' "$OUT/log" || true
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
