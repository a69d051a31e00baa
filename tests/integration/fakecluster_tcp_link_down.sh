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
fc_wait_data_connection 3 30
sleep 0.5
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
for r in pairs:
    x = r["extra"]
    touches = down in (x["src_host"], x["dst_host"])
    label = f'{r["name"]} {x["src_host"]} -> {x["dst_host"]}'
    if touches:
        assert r["status"] in ("failed", "timed_out"), f"{label}: {r['status']}"
        assert r["reason"], f"{label}: no message"
        print(f"ok: {label}: {r['status']} ({r['reason']})")
    else:
        assert r["status"] == "passed", f"{label}: {r['status']} {r['reason']}"
        if r["name"] == "bandwidth":
            assert r["extra"]["efficiency"] > 0.5, f"{label}: {r['extra']['efficiency']}"
        print(f"ok: {label}: passed")
# The broken flow ended after at most the timeout of silence (2 s), not after a hang.
broken = [r for r in pairs if r["name"] == "bandwidth" and r["extra"]["dst_host"] == down]
assert broken and all("2.0 s" in r["reason"] for r in broken), [r["reason"] for r in broken]
PY
