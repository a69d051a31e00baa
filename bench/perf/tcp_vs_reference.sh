#!/usr/bin/env bash
# Benchmark (not a test): the tcp suite against the reference tools, side by side, alternating,
# ROUNDS times each: goodput against iperf3 (one stream, receiver side) on a namespace link shaped
# to 1 Gbit/s and on loopback; ping-pong latency p50 (half round trip, 14-byte messages) against
# sockperf on the same namespace link and on loopback. Prints each round and the median ratios.
# Targets: goodput >= 0.98 x iperf3; latency p50 <= 1.10 x sockperf.
# Usage (root): bench/perf/tcp_vs_reference.sh [BUILD_DIR] [ROUNDS] [SECONDS] [WHERE]
#   WHERE: "net lo" (default), "net" or "lo"
set -euo pipefail
build=$(cd "${1:-build}" && pwd) rounds=${2:-3} secs=${3:-3} places=${4:-net lo}
here=$(cd "$(dirname "$0")/../.." && pwd)
fc="$here/launch/fakecluster"
pfx="bnch$((RANDOM % 1000))"
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  "$fc" down --prefix "$pfx" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bin="$build/gpunet-bench"
py() { python3 -c "$@"; }

"$fc" up 2 --rate 1gbit --prefix "$pfx" >/dev/null
on() { local n=$1; shift; "$fc" exec "$n" --prefix "$pfx" -- "$@"; }   # run inside node n
ours_mpirun() {  # where (net|lo), then gpunet-bench options
  local where=$1; shift
  if [[ $where == net ]]; then
    "$fc" mpirun --prefix "$pfx" --timeout 120 -- -np 2 "$bin" --suites tcp --tcp-if eth0 "$@" >/dev/null 2>&1 || true
  else
    mpirun --oversubscribe --bind-to none -np 2 "$bin" --suites tcp "$@" >/dev/null 2>&1 || true
  fi
}
field() { py "import json,sys; r=[x for x in map(json.loads, open(sys.argv[1])) if x[\"suite\"] == \"tcp\" and x[\"status\"] == \"passed\"][0]; print($2)" "$1"; }

# iperf3 one stream, receiver goodput in Gb/s.  where: net | lo
iperf3_goodput() {
  local where=$1 addr port=$((5300 + RANDOM % 500))
  if [[ $where == net ]]; then
    addr=10.77.0.2
    on 1 iperf3 -s -B "$addr" -p "$port" -1 -D
    sleep 0.5
    on 0 iperf3 -c "$addr" -p "$port" -t "$secs" -J >"$tmp/ip.json" 2>/dev/null || true
  else
    addr=127.0.0.1
    iperf3 -s -B "$addr" -p "$port" -1 >/dev/null 2>&1 &
    pids+=($!)
    sleep 0.5
    iperf3 -c "$addr" -p "$port" -t "$secs" -J >"$tmp/ip.json" 2>/dev/null || true
  fi
  py "import json; print(json.load(open('$tmp/ip.json'))['end']['sum_received']['bits_per_second'] / 1e9)"
}

ours_goodput() {
  ours_mpirun "$1" --tcp-tests neighbours --tcp-time "$secs" -o "$tmp/g"
  field "$tmp/g/results.jsonl" "r['extra']['goodput_Gbps']"
}

# sockperf ping-pong p50 in us (it reports half the round trip).  where: net | lo
sockperf_p50() {
  local where=$1 port=$((11000 + RANDOM % 500)) addr pid
  if [[ $where == net ]]; then
    addr=10.77.0.2
    on 1 sockperf server --tcp -i "$addr" -p "$port" >/dev/null 2>&1 &
  else
    addr=127.0.0.1
    sockperf server --tcp -i "$addr" -p "$port" >/dev/null 2>&1 &
  fi
  pid=$!
  pids+=("$pid")
  sleep 0.5
  if [[ $where == net ]]; then
    on 0 sockperf ping-pong --tcp -i "$addr" -p "$port" -m 14 -t "$secs" >"$tmp/sp.txt" 2>&1 || true
  else
    sockperf ping-pong --tcp -i "$addr" -p "$port" -m 14 -t "$secs" >"$tmp/sp.txt" 2>&1 || true
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  sed -n 's/.*percentile 50.000 = *\([0-9.]*\).*/\1/p' "$tmp/sp.txt"
}

ours_p50() {
  ours_mpirun "$1" --tcp-tests latency --tcp-lat-size 14 --tcp-lat-time "$secs" -o "$tmp/l"
  field "$tmp/l/results.jsonl" "r['extra']['latency_us']['p50']"
}

declare -A ratios
for i in $(seq "$rounds"); do
  for where in $places; do
    ref=$(iperf3_goodput "$where"); ours=$(ours_goodput "$where")
    r=$(py "print(f'{$ours/$ref:.4f}')")
    ratios[goodput_$where]+="$r "
    printf 'round %d %-3s goodput: iperf3 %.4f Gb/s, gpunet-bench %.4f Gb/s, ratio %s\n' "$i" "$where" "$ref" "$ours" "$r"
    ref=$(sockperf_p50 "$where"); ours=$(ours_p50 "$where")
    r=$(py "print(f'{$ours/$ref:.4f}')")
    ratios[latency_$where]+="$r "
    printf 'round %d %-3s latency p50: sockperf %.2f us, gpunet-bench %.2f us, ratio %s\n' "$i" "$where" "$ref" "$ours" "$r"
  done
done
echo "load average during the run: $(cut -d' ' -f1-3 /proc/loadavg)"
for k in "${!ratios[@]}"; do
  py "import statistics, sys
r = [float(x) for x in sys.argv[2].split()]
m = statistics.median(r)
goal = 'goodput >= 0.98 x iperf3' if sys.argv[1].startswith('goodput') else 'p50 <= 1.10 x sockperf'
ok = m >= 0.98 if sys.argv[1].startswith('goodput') else m <= 1.10
print(f'{sys.argv[1]:12s} median ratio gpunet-bench/reference = {m:.4f} over {len(r)} rounds ({goal}: {\"met\" if ok else \"NOT met\"})')" "$k" "${ratios[$k]}"
done
