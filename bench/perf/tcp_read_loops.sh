#!/usr/bin/env bash
# Benchmark (not a test): what each way of reading a TCP stream costs the sending core, on loopback
# (bench/perf/tcp_read_loops.cpp). The sender writes 128 KiB blocks on TX_CPU, the receiver reads on
# RX_CPU in each of the loops below in turn, ROUNDS times, SECONDS each. On loopback the sending core
# also runs the receive half of TCP, so it sets the rate; the engine's receiver uses poll-blocking-once-
# stamped (bench/suites/tcp/receive_flow.cpp), and used poll-nonblocking-drain-stamped before.
# Then two streams, the receiver polling and reading once per readable stream, the sender writing in
# each of three ways; the engine's sender polls, then sends on each stream until EAGAIN (at most 16).
# Usage: bench/perf/tcp_read_loops.sh [BUILD_DIR] [ROUNDS] [SECONDS]
set -euo pipefail
build=$(cd "${1:-build}" && pwd) rounds=${2:-3} secs=${3:-3}
tx_cpu=0 rx_cpu=1
bin="$build/tcp_read_loops"
loops="blocking blocking-stamped poll-nonblocking-drain poll-nonblocking-drain-stamped poll-blocking-once poll-blocking-once-stamped"
echo "load before: $(uptime)"
for i in $(seq "$rounds"); do
  for loop in $loops; do
    port=$((7000 + RANDOM % 1000))
    taskset -c "$rx_cpu" "$bin" recv "$port" "$loop" &
    sleep 0.2
    printf 'round %d %-31s ' "$i" "$loop"
    taskset -c "$tx_cpu" "$bin" send "$port" "$secs"
    wait
  done
done
for i in $(seq "$rounds"); do
  for writes in blocking poll-blocking poll-nonblocking-drain; do
    port=$((7000 + RANDOM % 1000))
    taskset -c "$rx_cpu" "$bin" recv "$port" poll-blocking-once 2 &
    sleep 0.2
    printf 'round %d two streams, writes %-22s ' "$i" "$writes"
    taskset -c "$tx_cpu" "$bin" send "$port" "$secs" 2 "$writes"
    wait
  done
done
echo "load after: $(uptime)"
