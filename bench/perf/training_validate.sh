#!/usr/bin/env bash
# Benchmark (not a test): checks the training-impact model's predictions on launch/fakecluster.
#  1. Fit: MPI all-reduce sweep on 2 nodes, FIT_PPN ranks per node (default 2; sizes 64K, 128K, ...
#     16M); the report's training section fits alpha and beta of the ring model per size regime
#     (report/training/TRAINING.md).
#  2. Predict and measure: 3 and 4 nodes, one rank per node, at sizes the fit never saw (96K, 384K, ...
#     24M), each with the regime whose sizes cover it; prints prediction / measurement per size and
#     node count (target: within 20 %).
#  3. Step emulation (train suite) on 2 nodes, one rank per node: measured step against the
#     no-overlap, perfect-overlap and fixed-model predictions (target: between the bounds, within 15 %
#     of the fixed model).
# Open MPI's all-reduce is fixed to the ring (coll_tuned_allreduce_algorithm 4) so model and
# measurement are about the same algorithm. Why the fit runs 2 ranks per node (report/training/TRAINING.md
# section 1): a ring of 2 ranks has the same peer on both sides, and Open MPI's TCP BTL then carries
# both directions of every step on one TCP connection, which reaches ~0.6x the per-direction
# bandwidth of the separate, one-way connections that a ring of 3 and more nodes uses (btl_tcp_links 2
# does not help: ob1 sends on one BTL module). With 2 ranks per node and ranks 0,1 on node 0 and 2,3
# on node 1 (--map-by ppr:2:node), the ring 0-1-2-3 crosses the network once each way, on two
# connections that each carry one direction, as every link of a larger ring does: the per-link alpha
# and beta the predictions need. FIT_PPN=1 reproduces the 2-rank fit. MPI runs on the fake cluster's
# control network, so its links (ctl0) are shaped too, to RATE. The TCP BTL's eager limit is raised to
# EAGER_LIMIT bytes (default 262144; EAGER_LIMIT=default keeps Open MPI's 64 KiB): with the host's bbr
# on the tbf-shaped links, ring steps of ~128 KiB sent by rendezvous stall for 20-40 ms in some
# iterations, sent eager they do not (report/training/TRAINING.md, validation). TCP_CC (default host: what the
# namespaces inherit) sets the congestion control of the MPI links on their route instead (cubic,
# reno). Needs root; run under `flock /tmp/gpunet-fc.lock`.
# Usage: bench/perf/training_validate.sh [BUILD_DIR] [RATE] [STEP_COMPUTE_S] [FIT_NODES]
# FIT_NODES (default 2; 3 predicts 4 nodes only) is the node count the model is fitted on.
set -euo pipefail
build=${1:-build} rate=${2:-1gbit} compute=${3:-0.25} fit_nodes=${4:-2}
here=$(cd "$(dirname "$0")/../.." && pwd)
fc="$here/launch/fakecluster"
prefix=trv
out=$(mktemp -d /tmp/gpunet-trv.XXXXXX)
trap '"$fc" down --prefix "$prefix" >/dev/null 2>&1 || true; rm -rf "$out"' EXIT
ring=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm 4)
ppn=${FIT_PPN:-2} iters=${ITERS:-20} cc=${TCP_CC:-host} eager=${EAGER_LIMIT:-262144}
if [[ $eager != default ]]; then  # the first fragment of a rendezvous send may not exceed the eager limit
  ring+=(--mca btl_tcp_eager_limit "$eager" --mca btl_tcp_rndv_eager_limit "$eager")
fi  # ITERS: timed iterations per all-reduce size (at least; the small sizes are noisy)
bench="$here/$build/gpunet-bench"

"$fc" up 4 --prefix "$prefix" --rate "$rate" >/dev/null
for i in 0 1 2 3; do  # MPI's own links: same rate as the data links (fakecluster shapes only eth0)
  tc -n "$prefix-node$i" qdisc replace dev ctl0 root tbf rate "$rate" burst 128kb latency 20ms
  if [[ $cc != host ]]; then  # the route's congctl, for the connections MPI opens from now on
    ip -n "$prefix-node$i" route replace "$(ip -n "$prefix-node$i" -4 route show dev ctl0 scope link | awk 'NR == 1 {print $1}')" \
      dev ctl0 proto kernel scope link src "$(ip -n "$prefix-node$i" -4 -o addr show dev ctl0 | awk '{sub("/.*", "", $4); print $4}')" \
      congctl "$cc"
  fi
done

run() {  # run RANKS DIR MPIRUN-ARGS... -- BENCH-ARGS...
  local n=$1 dir=$2; shift 2
  local -a mpi=()
  while [[ $1 != -- ]]; do mpi+=("$1"); shift; done
  shift
  "$fc" mpirun --prefix "$prefix" --timeout 600 -- -np "$n" "${mpi[@]}" "${ring[@]}" "$bench" -q -o "$dir" "$@" >/dev/null
}
echo "TCP congestion control on the MPI links: $([[ $cc == host ]] && ip netns exec "$prefix-node0" sysctl -n net.ipv4.tcp_congestion_control || echo "$cc"); btl_tcp_eager_limit: $eager"
echo "load before: $(cat /proc/loadavg)"
run $((fit_nodes * ppn)) "$out/fit" --map-by "ppr:$ppn:node" -- --suites mpi --collectives allreduce -b 64K -e 16M -f 2 -n "$iters" -w 2
for ((n = fit_nodes + 1; n <= 4; n++)); do
  run "$n" "$out/n$n" -- --suites mpi --collectives allreduce -b 96K -e 24M -f 4 -n "$iters" -w 2
done
run 2 "$out/step" -- --suites train --step-compute-s "$compute" --model-params 16777216 --grad-bytes 2 \
  --bucket-size 4M -n 5 -w 1

echo "load after: $(cat /proc/loadavg)"

python3 - "$out" "$fit_nodes" "$ppn" <<'PY'
import json, sys
out, fit_nodes, ppn = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fit = json.load(open(f"{out}/fit/report.json"))["extra"]["training"]
regimes = fit["fits"][0]["regimes"]
print(f"fit on {fit_nodes} nodes x {ppn} ranks ({fit['model']['source']}, {fit['model']['path']}):")
for r in regimes:
    print(f"  {r['regime']} ({r['min_bytes'] / 1024:.0f} KiB - {r['max_bytes'] / 1024:.0f} KiB): "
          f"alpha {r['alpha_s'] * 1e6:.1f} us, 1/beta {8e-9 / r['beta_s_per_byte']:.4f} Gb/s, R2 {r['r2']:.4f}, "
          f"max |res| {100 * r['max_abs_relative_residual']:.1f} %, median |res| {100 * r['median_abs_relative_residual']:.1f} %")
def regime_for(size):  # the last regime that starts at or below the size
    return [r for r in regimes if r["min_bytes"] <= size][-1] if size >= regimes[0]["min_bytes"] else regimes[0]
print("\n| nodes | size | regime | predicted | measured | predicted/measured |")
print("| ---: | ---: | --- | ---: | ---: | ---: |")
worst, per_n = 0.0, {}
for n in range(fit_nodes + 1, 5):
    for r in json.load(open(f"{out}/n{n}/report.json"))["results"]:
        if r["suite"] != "mpi" or r["name"] != "allreduce" or r["status"] != "passed":
            continue
        s, t = r["bytes"], r["time_us"]["mean"] * 1e-6
        g = regime_for(s)
        pred = 2 * (n - 1) * g["alpha_s"] + 2 * (n - 1) / n * s * g["beta_s_per_byte"]
        worst = max(worst, abs(pred / t - 1))
        per_n.setdefault((n, g["regime"]), []).append(abs(pred / t - 1))
        print(f"| {n} | {s >> 10} KiB | {g['regime']} | {pred * 1e3:.3f} ms | {t * 1e3:.3f} ms | {pred / t:.3f} |")
print()
for (n, regime), errs in sorted(per_n.items()):
    errs.sort()
    print(f"{n} nodes, {regime}: {len(errs)} sizes, median |predicted/measured - 1| {100 * errs[len(errs) // 2]:.1f} %, "
          f"worst {100 * errs[-1]:.1f} %")
print(f"worst |predicted/measured - 1| = {100 * worst:.1f} % (target 20 %)")
step = next(r for r in json.load(open(f"{out}/step/report.json"))["results"]
            if r["suite"] == "train" and r["name"] == "step" and r.get("variant") == "overlapped")
if step["status"] != "passed":
    print(f"train step: {step['status']}: {step['reason']}")
    sys.exit(0)
e, p = step["extra"], step["extra"]["predicted"]
meas = step["time_us"]["mean"] * 1e-6
print(f"\nstep emulation, 2 nodes, {step['bytes'] >> 20} MiB of gradients in {step['count']} buckets, "
      f"compute {e['measured_compute_s']:.3f} s, all-reduce alone {e['measured_comm_s']:.3f} s:")
print(f"  measured step {meas:.3f} s; perfect overlap {p['perfect_overlap_s']:.3f} s, "
      f"fixed model {p['model_s']:.3f} s, no overlap {p['no_overlap_s']:.3f} s")
print(f"  between the bounds: {e['within_bounds']}; measured/model - 1 = {100 * e['model_error']:+.1f} % (target 15 %)")
PY
