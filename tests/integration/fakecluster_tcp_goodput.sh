#!/usr/bin/env bash
# Two nodes on links shaped to 1 Gbit/s: single-stream goodput within 90%..101% of the shaped
# link's TCP ceiling (1e9 × 1448/1514 over IPv4, 1428/1514 over IPv6), the ceiling derived from the
# tbf rate the suite reads itself, both ends named by host, TCP_INFO and a latency record.
# Above 101% always fails; below 90% three times is judged against iperf3 on the same link.
source "$(dirname "$0")/fakecluster_lib.sh"
bin=$1
fc_start 2 --rate 1gbit

# check DIR IPV6 PAYLOAD: exit 0 in the band, 3 below 90% (prints the fraction), 1 otherwise.
check() {
  python3 - "$OUT/$1" "$PFX" "$2" "$3" <<'PY'
import json, sys
out, pfx, ipv6, payload = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
recs = json.load(open(f"{out}/report.json"))["results"]
bw = [r for r in recs if r["name"] == "bandwidth"]
assert len(bw) == 1, bw
r = bw[0]; x = r["extra"]
assert r["status"] == "passed", r["reason"]
assert x["src_host"] == f"{pfx}-node0" and x["dst_host"] == f"{pfx}-node1", (x["src_host"], x["dst_host"])
link = x["link"]
assert link["kind"] == "ethernet" and link["iface"] == "eth0" and link["mtu"] == 1500, link
assert link["shaped_rate_bps"] == 1e9 and link["loopback"] is False and link["ipv6"] is ipv6, link
assert link["tcp_timestamps"] is True, link
ceiling = 1e9 * payload / 1514 / 1e9
fig = r["figure"]
assert abs(fig["ceiling"]["value"] - ceiling) < 1e-9, (fig["ceiling"], ceiling)
assert "tbf" in fig["ceiling"]["derivation"], fig["ceiling"]
eff = x["goodput_Gbps"] / ceiling
assert abs(fig["efficiency"] - eff) < 1e-9
ti = x["tcp_info"]
assert len(ti) == 1 and ti[0]["mss_bytes"] == payload and ti[0]["timestamps"] is True, ti
assert ti[0]["rtt_us"] > 0 and ti[0]["cwnd_segments"] > 0, ti
assert x["bytes_sent"] == r["bytes"], "every byte sent arrived"
assert len(x["timeline_Gbps"]) >= 10, x["timeline_Gbps"]
assert eff <= 1.01, f"goodput {x['goodput_Gbps']:.4f} Gb/s is {eff:.4f} of the ceiling {ceiling:.4f}: above it"
if eff < 0.90:
    print(round(eff, 3)); sys.exit(3)
print(f"ok: goodput {x['goodput_Gbps']:.4f} Gb/s = {eff:.3f} of the {ceiling:.4f} Gb/s ceiling")
PY
}

# measure NAME IPV6 PAYLOAD --tcp-if SPEC [more options]
measure() {
  local name=$1 ipv6=$2 payload=$3 rc said; shift 3
  for attempt in 1 2 3; do
    fc_mpirun 90 -np 2 "$bin" --suites tcp "$@" -o "$OUT/$name" >"$OUT/$name.log" 2>&1 \
      || { cat "$OUT/$name.log"; fail "$name run exited $?"; }
    grep '^# tcp' "$OUT/$name.log"
    rc=0
    said=$(check "$name" "$ipv6" "$payload") || rc=$?
    [[ $rc == 0 ]] && { echo "$name: $said"; return 0; }
    [[ $rc == 3 ]] || { echo "$said"; fail "$name: check failed"; }
    echo "$name attempt $attempt: $said of the ceiling, below 90%"
  done
  fc_low_goodput 0 1 "$(python3 -c "print(1e9 * $payload / 1514 / 1e9)")" "$said"
}

measure v4 0 1448 --tcp-if eth0 --tcp-time 2 --tcp-tests neighbours,latency --tcp-lat-time 0.5
measure v6 1 1428 --tcp-if fd77::/64 --tcp-time 1.5 --tcp-tests neighbours

python3 - "$OUT" "$PFX" <<'PY'
import json, sys
out, pfx = sys.argv[1], sys.argv[2]
lat = [json.loads(l) for l in open(f"{out}/v4/results.jsonl")]
lat = [r for r in lat if r["name"] == "latency"]
assert len(lat) == 1 and lat[0]["status"] == "passed", lat
l = lat[0]["extra"]["latency_us"]
assert 0 < l["min"] <= l["p50"] <= l["p90"] <= l["p99"] <= l["p99_9"] <= l["max"], l
assert l["samples"] >= 100, l
rep = json.load(open(f"{out}/v4/report.json"))
assert rep["provenance"]["hosts"] == [f"{pfx}-node0", f"{pfx}-node1"], rep["provenance"]["hosts"]
print(f"ok: latency p50 {l['p50']:.1f} us over {l['samples']} round trips")
PY
