#!/usr/bin/env bash
# The live console and metrics.prom under the real mpirun on one node, output not a terminal (as in CI):
#  1. tcp in --duration mode (matrix: rank 0 -> 1 and rank 1 -> 0, so one sender is not rank 0 and its
#     lines reach rank 0 over the control channel): per flow, duration/interval interval lines whose
#     transfers add up to the bytes the flow moved, final sender and receiver lines, plain progress
#     lines (no carriage returns), and --tcp-live off / --progress off silence them;
#  2. the default run (every default suite, short budgets): promtool accepts its metrics.prom, the
#     mpi sweep ends in nccl-tests' footer, and the mpi and node suites show their steps' progress.
# Usage: live_console_test.sh BINARY
source "$(dirname "$0")/lib.sh"
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
command -v promtool >/dev/null || fail "promtool is missing (Debian package prometheus, ci/setup.sh --tests)"

"${MPIRUN[@]}" -np 2 "$bin" --suites tcp --tcp-tests matrix --duration 2 --tcp-live-interval 0.5 -o "$out/live" \
  >"$out/live.log" 2>&1 || { cat "$out/live.log"; fail "--duration run exited $?"; }
! grep -q $'\r' "$out/live.log" || fail "carriage returns in a log that is not a terminal"
grep -q '^# progress \[tcp\] tcp matrix round 1/1  0/1 (0%)  about ' "$out/live.log" \
  || { cat "$out/live.log"; fail "no progress line during the tcp flows"; }
python3 - "$out/live" "$out/live.log" <<'PY'
import json, re, sys
recs = [r for r in json.load(open(f"{sys.argv[1]}/report.json"))["results"] if r["name"] == "bandwidth"]
log = open(sys.argv[2]).read().splitlines()
assert len(recs) == 2, [r["variant"] for r in recs]
unit = {"kB": 1e3, "MB": 1e6, "GB": 1e9}
row = re.compile(r"^# tcp \[(\S+) -> (\S+)\] +([\d.]+)-([\d.]+) +s +([\d.]+) (kB|MB|GB) +([\d.]+) Gb/s +(\d+)? +(\S.*)?$")
for r in recs:
    x = r["extra"]
    label = (f"{x['src_host']}:{x['src_rank']}", f"{x['dst_host']}:{x['dst_rank']}")
    rows = [m for m in map(row.match, log) if m and (m[1], m[2]) == label]
    intervals = [m for m in rows if not (m[9] or "").strip() in ("sender", "receiver")]
    finals = [m[9].strip() for m in rows if (m[9] or "").strip() in ("sender", "receiver")]
    assert len(intervals) == round(2 / 0.5), (label, [m[0] for m in intervals])
    starts = [float(m[3]) for m in intervals]
    assert starts == [0.0, 0.5, 1.0, 1.5], starts
    total = sum(float(m[5]) * unit[m[6]] for m in intervals)
    # Each transfer is printed to 3 decimals of its unit: 500 bytes per kB-line, 500 B per MB-line, ...
    slack = sum(0.0005 * unit[m[6]] for m in intervals)
    assert abs(total - x["bytes_sent"]) <= slack, (label, total, x["bytes_sent"])
    assert x["bytes_sent"] == r["bytes"], x
    assert finals == ["sender", "receiver"], (label, finals)
    print(f"ok: {label[0]} -> {label[1]}: {len(intervals)} interval lines, {total/1e6:.3f} MB of {r['bytes']/1e6:.3f} MB")
PY

"${MPIRUN[@]}" -np 2 "$bin" --suites tcp --tcp-tests matrix --duration 0.5 --tcp-live off --progress off -o "$out/quiet" \
  >"$out/quiet.log" 2>&1 || { cat "$out/quiet.log"; fail "--tcp-live off run exited $?"; }
! grep -qE '^# tcp \[|^# progress' "$out/quiet.log" || { cat "$out/quiet.log"; fail "live lines with --tcp-live off --progress off"; }

"${MPIRUN[@]}" -np 2 "$bin" --budget 0.01 -n 2 --tcp-time 0.3 --tcp-lat-time 0.2 -o "$out/default" \
  >"$out/default.log" 2>&1 || { cat "$out/default.log"; fail "default run exited $?"; }
promtool check metrics <"$out/default/metrics.prom" || fail "promtool rejects the default run's metrics.prom"
grep -q '^gpunet_tcp_goodput_gbps{' "$out/default/metrics.prom" || fail "no tcp goodput series in metrics.prom"
grep -q '^gpunet_mpi_allreduce_busbw_bytes_per_second{' "$out/default/metrics.prom" || fail "no mpi busbw series in metrics.prom"
grep -q '^# Out of bounds values : 0 OK$' "$out/default.log" || { cat "$out/default.log"; fail "no nccl-tests footer"; }
grep -qE '^# Avg bus bandwidth    : [0-9.e+-]+ $' "$out/default.log" || fail "no average bus bandwidth line"
grep -q '^# progress \[mpi\]' "$out/default.log" || fail "no progress line during the mpi suite"
# The node suite's steps with their planned time: 4 kernels x (1 thread, every CPU) per NUMA node.
grep -qE '^# progress \[node\] membw numa[0-9]+ read 1 thread  0/[0-9]+ \(0%\)  about [0-9hms]+ left$' "$out/default.log" \
  || { grep '^# progress' "$out/default.log"; fail "no progress line with the time left during the node suite"; }
echo "ok: live console and metrics.prom"
