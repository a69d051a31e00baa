#!/usr/bin/env bash
# Node 3's data link goes down in the middle of a measurement (ip link set ... down): its flows end
# failed or timed out with a message within the socket timeout, nothing hangs, and every other
# pair's results survive. MPI runs on the control network, which stays up.
source "$(dirname "$0")/fakecluster_lib.sh"
bin=$1
fc_start 4 --rate 100mbit

start=$SECONDS
fc_mpirun 120 -np 4 "$bin" --suites tcp --tcp-if eth0 --tcp-tests neighbours,latency --tcp-time 2 \
  --tcp-timeout 2 --tcp-lat-time 0.5 --tcp-sndbuf 512K -o "$OUT/r" >"$OUT/log" 2>&1 &
run=$!
# As soon as data flows towards node 3 (its switch port has sent 1 MB), cut its data link.
for ((i = 0; i < 600; i++)); do
  sent=$(tc -n "$PFX-sw" -s qdisc show dev d3 | awk '/Sent/ { print $2; exit }')
  (( ${sent:-0} > 1000000 )) && break
  sleep 0.05
done
ip -n "$PFX-sw" link set d3 down
rc=0
wait $run || rc=$?
took=$((SECONDS - start))
grep '^# tcp' "$OUT/log" || true
[[ $rc == 1 ]] || { cat "$OUT/log"; fail "exit code $rc, expected 1 (failed flows)"; }
(( took < 60 )) || fail "the run took $took s"

python3 - "$OUT/r" "$PFX" <<'PY'
import json, sys
out, pfx = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(f"{out}/results.jsonl")]
down = f"{pfx}-node3"
pairs = [r for r in recs if r["name"] in ("bandwidth", "latency")]
assert len(pairs) == 8, [(r["name"], r["extra"].get("src_host"), r["extra"].get("dst_host")) for r in pairs]
broken_seen = False
for r in pairs:
    x = r["extra"]
    label = f'{r["name"]} {x["src_host"]} -> {x["dst_host"]}'
    if down not in (x["src_host"], x["dst_host"]):
        assert r["status"] == "passed", f"{label}: {r['status']} {r['reason']}"
        print(f"ok: {label}: passed")
        continue
    # Node 3's flows: once its link is down, each ends failed or timed out, with a message.
    if r["status"] == "passed":
        assert not broken_seen, f"{label} passed after node 3's link went down"
        print(f"ok: {label}: passed (before the link went down)")
        continue
    broken_seen = True
    assert r["status"] in ("failed", "timed_out") and r["reason"], f"{label}: {r['status']} {r['reason']}"
    print(f"ok: {label}: {r['status']} ({r['reason']})")
cut = [r for r in pairs if r["name"] == "bandwidth" and r["status"] != "passed"]
assert cut, "no bandwidth flow of node 3 was cut"
# The flow cut mid-test had moved data, and ended after the 2 s of silence the timeout allows.
assert cut[0]["bytes"] > 0 or cut[0]["extra"]["bytes_sent"] > 0, cut[0]
assert "2.0 s" in cut[0]["reason"], cut[0]["reason"]
PY
