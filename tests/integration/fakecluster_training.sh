#!/usr/bin/env bash
# The training-impact section on a 4-node fake cluster at 1 Gbit/s (launch/fakecluster; MPI runs on
# the control network, so its links are shaped to the same rate). An MPI all-reduce sweep on 4 nodes
# with --step-compute-s 0.5 must answer, for the 7B preset, the GPUs' waiting fraction at 4 nodes and
# the node count where communication exceeds compute, from a fitted alpha and beta with their fit
# quality, the same in report.json and report.md; counts above 8 nodes are projections. A 2-node
# run without --step-compute-s answers with the stated default.
# Usage: fakecluster_training.sh BINARY
source "$(dirname "$0")/fakecluster_lib.sh"
bin=$1
rate=1gbit
fc_start 4 --rate "$rate"
for i in 0 1 2 3; do
  tc -n "$PFX-node$i" qdisc replace dev ctl0 root tbf rate "$rate" burst 128kb latency 20ms
  tc -n "$PFX-sw" qdisc replace dev "c$((i + 1))" root tbf rate "$rate" burst 128kb latency 20ms
done

sweep=(--suites mpi --collectives allreduce -b 64K -e 4M -f 4 -n 3 -w 1 --budget 0.01 --timeout 60)
fc_mpirun 150 -np 4 "$bin" "${sweep[@]}" --step-compute-s 0.5 -q -o "$OUT/four" >"$OUT/four.log" 2>&1 ||
  { cat "$OUT/four.log"; fail "4-node run exited $?"; }
fc_mpirun 150 -np 2 "$bin" "${sweep[@]}" -q -o "$OUT/two" >"$OUT/two.log" 2>&1 ||
  { cat "$OUT/two.log"; fail "2-node run exited $?"; }

python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
link_GBps = 1e9 / 8 / 1e9

def section(name):
    t = json.load(open(f"{out}/{name}/report.json"))["extra"]["training"]
    assert t["available"], t
    return t, open(f"{out}/{name}/report.md").read()

def pct(x):  # as report.md writes a percentage
    return f"{100 * x:.1f} %"

t, md = section("four")
m = t["model"]
assert m["source"].startswith("mpi") and m["measured_nodes"] == 4 and not m["fallback"], m
# The model names the network its curve crossed (MPI runs on the control network here).
assert m.get("network") == "ctl0 on 4 hosts", m.get("network")
assert m["alpha_s"] >= 0 and 0 < m["bandwidth_GBps"] <= 1.5 * link_GBps, m
fit = t["fits"][0]
assert fit["nodes"] == 4 and fit["points"] == 4, fit
for r in fit["regimes"]:
    assert isinstance(r["r2"], (int, float)) and r["r2"] <= 1 and len(r["residuals"]) >= 2, r
    assert r["max_abs_relative_residual"] >= r["median_abs_relative_residual"] >= 0, r
assert not t["inputs"]["step_compute_is_default"] and t["inputs"]["step_compute_s"] == 0.5, t["inputs"]
w = next(x for x in t["workloads"] if x["name"] == "7B")
assert abs(w["grad_bytes"] - 14e9) < 1, w
rows = {r["nodes"]: r for r in w["rows"]}
four = rows[4]
assert four["kind"] == "measured node count", four
# 14 GB of gradients over a ~1 Gbit/s ring take minutes against 0.5 s of compute: the GPUs wait
# nearly all of every step, and 2 nodes already communicate longer than they compute.
assert 0.95 < four["wait_no_overlap"] < 1 and four["comm_s"] > 60, four
assert abs(four["bytes_per_node"] - 2 * 3 / 4 * 14e9) < 1e3, four
assert w["comm_exceeds_compute_at"] == 2, w["comm_exceeds_compute_at"]
assert all(r["comm_s"] > 0.5 for n, r in rows.items() if n >= 2), rows
assert all(r["kind"] == "projection" for n, r in rows.items() if n > 8), rows
assert any(n > 8 for n in rows), sorted(rows)
assert "Training" in md, "no training section in report.md"
sentence = next((l for l in md.splitlines() if l.startswith("With ") and "gradients" in l), "")
assert "over 4 nodes" in sentence and f"waiting {pct(four['wait_no_overlap'])} of each step" in sentence, sentence
assert "give --step-compute-s" not in sentence and "7" in sentence.split("parameters")[0], sentence
print(sentence)

t, md = section("two")
assert t["inputs"]["step_compute_is_default"] and t["inputs"]["step_compute_s"] == 0.5, t["inputs"]
assert t["model"]["measured_nodes"] == 2, t["model"]
assert "(the default: give --step-compute-s)" in md, "the default is not stated in report.md"
rows = {r["nodes"]: r for r in next(x for x in t["workloads"] if x["name"] == "7B")["rows"]}
assert rows[2]["kind"] == "measured node count" and rows[4]["kind"] == "projection", rows
print(f"4 nodes: alpha {m['alpha_s'] * 1e6:.1f} us, {m['bandwidth_GBps'] * 8:.3f} Gb/s, "
      f"7B waits {pct(four['wait_no_overlap'])} at 4 nodes; comm exceeds compute from 2 nodes")
PY
echo ok
