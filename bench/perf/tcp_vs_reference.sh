#!/usr/bin/env bash
# Benchmark (not a test): the tcp suite against the reference tools on loopback, alternating, ROUNDS
# times: goodput of one stream against iperf3 (receiver side), ping-pong latency p50 (half the round
# trip, 14-byte messages) against sockperf. Every process is pinned with taskset, the same way for
# every tool: the sending / pinging side on CPU 0, the receiving / answering side on CPU 1 (gpunet-bench
# rank 0 and rank 1: mpirun MPMD, each rank under its own taskset). On a VM a wake-up across cores
# costs far more than one on the same core, so unpinned latency figures are bimodal.
# The reference runs first in odd rounds and second in even rounds. Prints each round, the load, and the median ratios with their middle half.
# Targets: goodput >= 0.98 x iperf3; latency p50 <= 1.05 x sockperf.
# Usage: [GPUNET_BENCH_ARGS="..."] bench/perf/tcp_vs_reference.sh [BUILD_DIR] [ROUNDS] [SECONDS]
#   GPUNET_BENCH_ARGS: extra gpunet-bench options for every gpunet-bench run, split on blanks (for
#   example the options that switch on the live console lines, to measure with them on). The
#   console of each run goes to a file (not a terminal); the last one's line count is printed.
# On a machine shared with other work, run it as `nice -n -20 bench/perf/tcp_vs_reference.sh ...`: everything it
# starts inherits the priority, the yardstick and gpunet-bench alike; say the load (printed).
set -euo pipefail
build=$(cd "${1:-build}" && pwd) rounds=${2:-5} secs=${3:-3}
tx_cpu=0 rx_cpu=1
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bin="$build/gpunet-bench"
py() { python3 -c "$@"; }

read -ra extra <<<"${GPUNET_BENCH_ARGS:-}"
ours() {  # gpunet-bench options; rank 0 on tx_cpu, rank 1 on rx_cpu
  mpirun --oversubscribe --bind-to none -np 1 taskset -c "$tx_cpu" "$bin" --suites tcp "$@" "${extra[@]}" \
    : -np 1 taskset -c "$rx_cpu" "$bin" --suites tcp "$@" "${extra[@]}" >"$tmp/console.txt" 2>&1 || true
}
field() { py "import json,sys; r=[x for x in map(json.loads, open(sys.argv[1])) if x[\"suite\"] == \"tcp\" and x[\"status\"] == \"passed\"][0]; print($2)" "$1"; }

iperf3_goodput() {  # one stream, receiver goodput in Gb/s
  local port=$((5300 + RANDOM % 500))
  taskset -c "$rx_cpu" iperf3 -s -B 127.0.0.1 -p "$port" -1 >/dev/null 2>&1 &
  pids+=($!)
  sleep 0.5
  taskset -c "$tx_cpu" iperf3 -c 127.0.0.1 -p "$port" -t "$secs" -J >"$tmp/ip.json" 2>/dev/null || true
  py "import json; print(json.load(open('$tmp/ip.json'))['end']['sum_received']['bits_per_second'] / 1e9)"
}

ours_goodput() {
  ours --tcp-tests neighbours --tcp-time "$secs" -o "$tmp/g"
  field "$tmp/g/results.jsonl" "r['extra']['goodput_Gbps']"
}

sockperf_p50() {  # ping-pong p50 in us (sockperf reports half the round trip)
  local port=$((11000 + RANDOM % 500)) pid
  taskset -c "$rx_cpu" sockperf server --tcp -i 127.0.0.1 -p "$port" >/dev/null 2>&1 &
  pid=$!
  pids+=("$pid")
  sleep 0.5
  taskset -c "$tx_cpu" sockperf ping-pong --tcp -i 127.0.0.1 -p "$port" -m 14 -t "$secs" >"$tmp/sp.txt" 2>&1 || true
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  sed -n 's/.*percentile 50.000 = *\([0-9.]*\).*/\1/p' "$tmp/sp.txt"
}

ours_p50() {
  ours --tcp-tests latency --tcp-lat-size 14 --tcp-lat-time "$secs" -o "$tmp/l"
  field "$tmp/l/results.jsonl" "r['extra']['latency_us']['p50']"
}

echo "load before: $(uptime)"
echo "gpunet-bench extra options: ${extra[*]:-(none)}"
goodput="" latency=""
for i in $(seq "$rounds"); do
  if (( i % 2 )); then ref=$(iperf3_goodput); mine=$(ours_goodput); else mine=$(ours_goodput); ref=$(iperf3_goodput); fi
  r=$(py "print(f'{$mine/$ref:.4f}')"); goodput+="$r "
  printf 'round %d goodput: iperf3 %.4f Gb/s, gpunet-bench %.4f Gb/s, ratio %s\n' "$i" "$ref" "$mine" "$r"
  if (( i % 2 )); then ref=$(sockperf_p50); mine=$(ours_p50); else mine=$(ours_p50); ref=$(sockperf_p50); fi
  r=$(py "print(f'{$mine/$ref:.4f}')"); latency+="$r "
  printf 'round %d latency p50: sockperf %.2f us, gpunet-bench %.2f us, ratio %s\n' "$i" "$ref" "$mine" "$r"
done
echo "load after: $(uptime)"
echo "console of the last gpunet-bench run: $(wc -l <"$tmp/console.txt") lines"
summary() {
  py "import statistics, sys
r = sorted(float(x) for x in sys.argv[2].split())
q = statistics.quantiles(r, n=4, method='inclusive') if len(r) > 1 else [r[0]] * 3
m = statistics.median(r)
ok = m >= 0.98 if sys.argv[1] == 'goodput' else m <= 1.05
goal = 'goodput >= 0.98 x iperf3' if sys.argv[1] == 'goodput' else 'p50 <= 1.05 x sockperf'
print(f'{sys.argv[1]:8s} gpunet-bench/reference median {m:.4f}, middle half {q[0]:.4f}..{q[2]:.4f}, {len(r)} rounds ({goal}: {\"met\" if ok else \"NOT met\"})')" "$1" "$2"
}
summary goodput "$goodput"
summary latency "$latency"
