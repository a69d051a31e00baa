#!/usr/bin/env bash
# The tcp suite under the real mpirun on one node: pairs of ranks test over loopback (127.0.0.1)
# and every record says so, with each end's CPU; stability mode; both ranks pinned to one core; a bad
# --tcp-if is a usage error; one rank is a skip.
source "$(dirname "$0")/../../integration/lib.sh"
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"${MPIRUN[@]}" -np 3 "$bin" --suites tcp --tcp-time 0.3 --tcp-lat-time 0.2 --tcp-streams 2 -o "$out/all" >"$out/all.log" 2>&1 \
  || { cat "$out/all.log"; fail "3-rank loopback run exited $?"; }
grep -q '^# tcp latency' "$out/all.log" || fail "no console line for latency"
python3 - "$out/all" <<'PY'
import json, sys
recs = json.load(open(f"{sys.argv[1]}/report.json"))["results"]
pairs = [r for r in recs if r["name"] in ("bandwidth", "latency")]
kinds = {}
for r in pairs:
    assert r["status"] == "passed", (r["variant"], r["reason"])
    x = r["extra"]
    assert x["path"].startswith("loopback"), x["path"]
    assert x["link"]["loopback"] is True and x["link"]["iface"] == "lo", x["link"]
    assert x["src_rank"] != x["dst_rank"]
    if r["name"] == "bandwidth":
        f = r["figure"]
        assert f["metric"] == "tcp.goodput" and f["value"] > 0 and f["subject"]["kind"] == "pair", f
        assert f["ceiling"]["known"] is False and "loopback" in f["ceiling"]["reason"], f
        assert "efficiency" not in f
        assert x["bytes_sent"] == r["bytes"] and len(x["tcp_info"]) == x["streams"], x
        for end in ("sender", "receiver"):  # each end's CPU over the flow, as iperf3 -V
            c = x["cpu"][end]
            assert c["user_pct"] >= 0 and c["sys_pct"] >= 0 and c["user_pct"] + c["sys_pct"] > 0 and c["cpu"] >= 0, (end, c)
    kinds[(r["name"], r["variant"], r["count"] if r["name"] == "bandwidth" else 0)] = kinds.get((r["name"], r["variant"], r["count"] if r["name"] == "bandwidth" else 0), 0) + 1
want = {("bandwidth", "neighbours", 1): 3, ("bandwidth", "neighbours", 2): 3, ("bandwidth", "matrix", 2): 6,
        ("bandwidth", "one-to-many", 2): 2, ("bandwidth", "many-to-one", 2): 2, ("latency", "ping-pong", 0): 3}
assert kinds == want, kinds
agg = [r for r in recs if r["name"] == "aggregate"]
assert len(agg) == 2 and all(r["status"] == "passed" for r in agg), agg
m = [r for r in recs if r["name"] == "matrix"]
assert len(m) == 1 and "no links" in m[0]["extra"]["suspects_skipped"] and not m[0]["extra"]["suspects"], m
assert not [r for r in recs if r["name"] == "finding"]
lat = [r for r in recs if r["name"] == "latency"][0]
l = lat["extra"]["latency_us"]
assert l["p50"] <= l["p90"] <= l["p99"] <= l["p99_9"] <= l["max"] and lat["time_us"]["p50"] == l["p50"], l
print(f"ok: {len(pairs)} loopback pair records, all passed")
PY

"${MPIRUN[@]}" -np 2 "$bin" --suites tcp --duration 1 --tcp-interval 0.05 -o "$out/stab" >"$out/stab.log" 2>&1 \
  || { cat "$out/stab.log"; fail "stability run exited $?"; }
python3 - "$out/stab" <<'PY'
import json, sys
recs = [r for r in map(json.loads, open(f"{sys.argv[1]}/results.jsonl")) if r["suite"] == "tcp"]
assert [r["variant"] for r in recs] == ["neighbours"], [r["variant"] for r in recs]
x = recs[0]["extra"]
assert x["mode"] == "stability" and x["duration_s"] == 1, x
st = x["stability"]
assert 15 <= st["intervals"] == len(x["timeline_Gbps"]) <= 30, st
assert st["min_Gbps"] <= st["p1_Gbps"] <= st["p50_Gbps"] <= st["max_Gbps"], st
assert abs(st["threshold_Gbps"] - 0.8 * st["p50_Gbps"]) < 1e-9, st
print(f"ok: stability timeline of {st['intervals']} intervals, p50 {st['p50_Gbps']:.2f} Gb/s, {len(st['dips'])} dip(s)")
PY

# Both ranks pinned to CPU 0: each end says so, and the core, saturated by the flow (or by the flow and
# whatever else runs there), makes the flow diagnosed as the host's limit in report.md.
taskset -c 0 "${MPIRUN[@]}" -np 2 "$bin" --suites tcp --tcp-time 0.5 --tcp-lat-time 0.1 -o "$out/pin" >"$out/pin.log" 2>&1 \
  || { cat "$out/pin.log"; fail "pinned run exited $?"; }
python3 - "$out/pin" <<'PY'
import json, sys
d = sys.argv[1]
recs = [r for r in json.load(open(f"{d}/report.json"))["results"] if r["name"] == "bandwidth" and r["status"] == "passed"]
md = open(f"{d}/report.md").read()
assert recs
diagnosed = []
for r in recs:
    c = r["extra"]["cpu"]
    assert all(c[e]["pinned"] and c[e]["cpu"] == 0 for e in ("sender", "receiver")), c
    busy = max([sum(c[e]["user_pct"] + c[e]["sys_pct"] for e in ("sender", "receiver"))] +
               [c[e]["core_busy_pct"] or 0 for e in ("sender", "receiver")])
    said = r["figure"]["ceiling"].get("explanation", "")
    if busy >= 90:
        assert said.startswith("the sender and the receiver shared CPU 0"), (busy, said)
        diagnosed.append(said)
    else:
        assert "shared CPU" not in said, (busy, said)
    print(f"ok: pinned {r['variant']} flow: CPU 0 {busy:.0f} % busy, diagnosed: {bool(said)}")
assert "CPU sender / receiver" in md
assert diagnosed and any(s in md for s in diagnosed), "the diagnosis is not in report.md"
PY

rc=0
"${MPIRUN[@]}" -np 2 "$bin" --suites tcp --tcp-if nosuchif0 -o "$out/bad" >"$out/bad.log" 2>"$out/bad.err" || rc=$?
[[ $rc == 2 ]] || { cat "$out/bad.log" "$out/bad.err"; fail "bad --tcp-if exited $rc, not 2"; }
grep -q "gpunet-bench: error: --tcp-if nosuchif0: no interface nosuchif0" "$out/bad.err" || { cat "$out/bad.err"; fail "no one-line message"; }
grep -q '"setup"' "$out/bad/results.jsonl" || fail "the failed setup is not in results.jsonl"

"$bin" --suites tcp -o "$out/one" >"$out/one.log" 2>&1 || { cat "$out/one.log"; fail "one rank exited $?"; }
grep -q '"status":"skipped"' "$out/one/results.jsonl" || fail "one rank: no skipped record"
grep -q "needs 2 or more ranks" "$out/one/results.jsonl" || fail "one rank: no reason"
echo "ok: stability mode, bad --tcp-if (exit 2), one rank (skipped)"
