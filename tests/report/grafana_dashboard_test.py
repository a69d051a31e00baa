#!/usr/bin/env python3
"""launch/grafana/gpunet-bench.json: valid JSON, the output of launch/grafana/make-dashboard as it is, and
every metric name a panel queries exists in a real metrics.prom (the program's `report` command on the
report fixtures: tcp and rdma pairs, pcie per GPU, collectives, the run's verdict). With --spec, the
promises of ci/spec-example.json become thresholds; a bad spec is one line and exit 2. The check itself
must catch a metric name that metrics.prom lacks.

Usage: grafana_dashboard_test.py PATH/TO/gpunet-bench
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAKE = os.path.join(ROOT, "launch", "grafana", "make-dashboard")
DASHBOARD = os.path.join(ROOT, "launch", "grafana", "gpunet-bench.json")
FIXTURES = ["tests/data/report/golden/report.json", "tests/data/report/rdma_matrix.json"]
METRIC = re.compile(r"\bgpunet_[a-z0-9_]+")


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def metrics_prom_names(bench, tmp):
    names = set()
    for i, rel in enumerate(FIXTURES):
        out = os.path.join(tmp, f"run{i}")
        r = subprocess.run([bench, "report", os.path.join(ROOT, rel), "-o", out], capture_output=True, text=True, timeout=60)
        if r.returncode not in (0, 1, 4):  # the verdict of the fixture run, not an error
            fail(f"gpunet-bench report {rel}: exit {r.returncode}: {r.stderr.strip()}")
        with open(os.path.join(out, "metrics.prom"), encoding="utf-8") as f:
            names |= {line.split("{")[0].split(" ")[0] for line in f if line.startswith("gpunet_")}
    return names


def queried_names(dashboard):
    """Metric names of every panel's queries, and the panels that query none."""
    found, empty = {}, []
    for p in dashboard["panels"]:
        if p["type"] == "row":
            continue
        names = {m for t in p.get("targets", []) for m in METRIC.findall(t["expr"])}
        if not names:
            empty.append(p["title"])
        for m in names:
            found.setdefault(m, []).append(p["title"])
    for v in dashboard["templating"]["list"]:
        for m in METRIC.findall(v.get("definition", "")):
            found.setdefault(m, []).append("variable " + v["name"])
    return found, empty


def missing(dashboard, have):
    found, _ = queried_names(dashboard)
    return sorted(f"{m} (in {', '.join(where)})" for m, where in found.items() if m not in have)


def thresholds(dashboard):
    out = {}
    for p in dashboard["panels"]:
        steps = p.get("fieldConfig", {}).get("defaults", {}).get("thresholds", {}).get("steps", [])
        limits = [s["value"] for s in steps if s["value"] is not None]
        if limits:
            out[p["title"]] = limits[0]
    return out


def main():
    bench = sys.argv[1]
    with open(DASHBOARD, encoding="utf-8") as f:
        text = f.read()
    dashboard = json.loads(text)
    made = subprocess.run([MAKE], capture_output=True, text=True, check=True).stdout
    if made != text:
        fail("launch/grafana/gpunet-bench.json differs from make-dashboard's output (run: launch/grafana/make-dashboard -o launch/grafana/gpunet-bench.json)")
    ids = [p["id"] for p in dashboard["panels"]]
    if len(ids) != len(set(ids)):
        fail(f"panel ids repeat: {ids}")
    _, empty = queried_names(dashboard)
    if empty:
        fail(f"panels without a gpunet metric: {empty}")
    if thresholds(dashboard):
        fail(f"thresholds without a spec: {thresholds(dashboard)}")

    tmp = tempfile.mkdtemp(prefix="grafana-test.")
    try:
        have = metrics_prom_names(bench, tmp)
        gone = missing(dashboard, have)
        if gone:
            fail("metrics the dashboard queries but metrics.prom lacks: " + "; ".join(gone))
        # The check catches a name metrics.prom lacks.
        broken = json.loads(text)
        broken["panels"][-1]["targets"][0]["expr"] = "gpunet_tcp_goodput_gbits"
        if missing(broken, have) != [f"gpunet_tcp_goodput_gbits (in {broken['panels'][-1]['title']})"]:
            fail(f"the check missed a made-up metric: {missing(broken, have)}")
        for pair_metric in ("gpunet_tcp_goodput_gbps", "gpunet_rdma_write_bw_gbps", "gpunet_tcp_latency_seconds"):
            if pair_metric not in queried_names(dashboard)[0]:
                fail(f"no per-pair panel queries {pair_metric}")

        # Thresholds from the example spec (ci/spec-example.json).
        r = subprocess.run([MAKE, "--spec", os.path.join(ROOT, "ci", "spec-example.json")], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"make-dashboard --spec ci/spec-example.json: exit {r.returncode}: {r.stderr}")
        got = thresholds(json.loads(r.stdout))
        want = {"TCP goodput efficiency per pair": 0.9, "TCP latency per pair": 5e-05, "RDMA write latency per pair": 5e-06,
                "NCCL all-reduce busbw": 3.6e11, "NCCL all-reduce efficiency": 0.8}
        for title, limit in want.items():
            if got.get(title) != limit:
                fail(f"threshold of '{title}': {got.get(title)}, expected {limit} (all: {got})")

        # A bad spec: one line naming the file and field, exit 2.
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w", encoding="utf-8") as f:
            json.dump({"latency": [{"suite": "tcp", "name": "latency", "max_p99_us": "fast"}]}, f)
        r = subprocess.run([MAKE, "--spec", bad], capture_output=True, text=True)
        if r.returncode != 2 or r.stderr.count("\n") != 1 or "latency[0].max_p99_us" not in r.stderr or r.stdout:
            fail(f"bad spec: exit {r.returncode}, stderr {r.stderr!r}")
    finally:
        shutil.rmtree(tmp)
    print(f"ok: the dashboard queries {len(queried_names(dashboard)[0])} metrics, all in metrics.prom")


if __name__ == "__main__":
    main()
