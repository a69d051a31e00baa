#!/usr/bin/env python3
"""Benchmark (not a test): CPU time, context switches and threads per GB of a loopback TCP flow,
gpunet-bench's engine beside iperf3 with the same message size, both pinned the same way.

Each tool runs one flow of SECONDS; once the receiver has 64 MB, the script reads every thread of
both processes (/proc/PID/task/TID: schedstat run time, voluntary and involuntary context switches,
the CPU it last ran on) and the bytes the receiver's sockets took (`ss -tinp`, bytes_received), waits
WINDOW seconds, and reads them again. The window is inside the flow on both tools, so start-up, MPI
wire-up and the report are left out: what is printed is what runs while bytes move.

Usage: bench/perf/tcp_cpu_per_gb.py [--build build] [--rounds 3] [--seconds 4] [--window 2]
           [--streams 1] [--tx-cpus 0] [--rx-cpus 1] [--msg 128K] [--tool both|ours|iperf3] [-- extra gpunet-bench options]
Prints one block per run and the medians of CPU ms per GB on each side.
"""
import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
TICK = os.sysconf("SC_CLK_TCK")


def threads(pid):
    """{tid: (comm, run_ns, voluntary, involuntary, last_cpu)} of a live process."""
    out = {}
    base = f"/proc/{pid}/task"
    try:
        tids = os.listdir(base)
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"{base}/{tid}/comm") as f:
                comm = f.read().strip()
            with open(f"{base}/{tid}/schedstat") as f:
                run_ns = int(f.read().split()[0])
            with open(f"{base}/{tid}/status") as f:
                st = f.read()
            with open(f"{base}/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        vol = int(re.search(r"^voluntary_ctxt_switches:\s*(\d+)", st, re.M).group(1))
        invol = int(re.search(r"^nonvoluntary_ctxt_switches:\s*(\d+)", st, re.M).group(1))
        last_cpu = int(stat[stat.rindex(")") + 2:].split()[36])
        out[int(tid)] = (comm, run_ns, vol, invol, last_cpu)
    return out


def received_bytes(pid):
    """Sum of bytes_received of the established TCP sockets that process pid holds."""
    text = subprocess.run(["ss", "-tinpH", "state", "established"], capture_output=True, text=True).stdout
    total, mine = 0, False
    for line in text.splitlines():
        if "users:((" in line:
            mine = f"pid={pid}," in line
            continue
        if mine:
            m = re.search(r"bytes_received:(\d+)", line)
            if m:
                total += int(m.group(1))
    return total


def children_named(root_pid, name):
    """Descendants of root_pid whose command is name."""
    found = []
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return found
    parent = {}
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                s = f.read()
            parent[p] = int(s[s.rindex(")") + 2:].split()[1])
        except OSError:
            continue
    for p in parent:
        q = p
        while q in parent and q != root_pid and q > 1:
            q = parent[q]
        if q == root_pid and p != root_pid:
            try:
                with open(f"/proc/{p}/comm") as f:
                    if f.read().strip() == name:
                        found.append(p)
            except OSError:
                pass
    return found


def measure(tx_pid, rx_pid, window):
    """Waits for the flow, then reads both processes over window seconds."""
    deadline = time.time() + 60
    while received_bytes(rx_pid) < 64 << 20:
        if time.time() > deadline:
            return None
        time.sleep(0.05)
    time.sleep(0.3)
    t0, b0 = time.monotonic(), received_bytes(rx_pid)
    soft = softirq_threads()
    tx0, rx0, k0 = threads(tx_pid), threads(rx_pid), kernel_threads(soft)
    time.sleep(window)
    t1, b1 = time.monotonic(), received_bytes(rx_pid)
    tx1, rx1, k1 = threads(tx_pid), threads(rx_pid), kernel_threads(soft)
    return {"seconds": t1 - t0, "bytes": b1 - b0, "tx": (tx0, tx1), "rx": (rx0, rx1), "ksoftirqd": (k0, k1)}


def softirq_threads():
    """The pids of the ksoftirqd threads (loopback's receive work runs there when the sender's context does not take it)."""
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/comm") as f:
                    if f.read().startswith("ksoftirqd/"):
                        out.append(int(p))
            except OSError:
                pass
    return out


def kernel_threads(pids):
    out = {}
    for p in pids:
        out.update(threads(p))
    return out


def side(before, after, gb, secs):
    rows = []
    for tid, (comm, ns, vol, invol, cpu) in after.items():
        b = before.get(tid, (comm, 0, 0, 0, cpu))
        rows.append((comm, tid, (ns - b[1]) / 1e6, vol - b[2], invol - b[3], cpu))
    rows.sort(key=lambda r: -r[2])
    total_ms = sum(r[2] for r in rows)
    lines = []
    for comm, tid, ms, vol, invol, cpu in rows:
        if ms < 0.05 and vol + invol == 0:
            continue
        lines.append(f"    {comm:16s} tid {tid:7d} cpu {cpu:2d}: {ms / secs / 10:6.2f} % of a core, {ms / gb:7.2f} ms/GB, "
                     f"{vol / gb:8.1f} vol + {invol / gb:6.1f} invol switches/GB")
    return total_ms / gb, rows[0][2] / gb if rows else 0.0, lines


def report(tool, m):
    gb = m["bytes"] / 1e9
    secs = m["seconds"]
    print(f"{tool}: {gb * 8 / secs:.2f} Gb/s over {secs:.2f} s ({gb:.2f} GB)")
    out = {}
    for name in ("tx", "rx", "ksoftirqd"):
        total, busiest, lines = side(*m[name], gb, secs)
        print(f"  {name}: {total:.1f} ms CPU/GB in all threads, {busiest:.1f} in the busiest")
        print("\n".join(lines))
        out[name] = total
    return out


def run_iperf3(a):
    port = 5300 + random.randrange(500)
    srv = subprocess.Popen(["taskset", "-c", a.rx_cpus, "iperf3", "-s", "-1", "-B", "127.0.0.1", "-p", str(port)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.4)
    cli = subprocess.Popen(["taskset", "-c", a.tx_cpus, "iperf3", "-c", "127.0.0.1", "-p", str(port), "-t", str(a.seconds),
                            "-l", a.msg, "-P", str(a.streams)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    m = measure(cli.pid, srv.pid, a.window)
    cli.wait()
    srv.wait(timeout=10)
    return m


def run_ours(a, extra):
    out = tempfile.mkdtemp()
    common = ["--suites", "tcp", "--tcp-tests", "neighbours", "--tcp-time", str(a.seconds), "--tcp-msg", a.msg,
              "--tcp-streams", str(a.streams), "-o", out] + extra
    binary = os.path.join(os.path.abspath(a.build), "gpunet-bench")
    cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", "1", "taskset", "-c", a.tx_cpus, binary] + common + \
          [":", "-np", "1", "taskset", "-c", a.rx_cpus, binary] + common
    job = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    ranks = []
    deadline = time.time() + 60
    while len(ranks) < 2 and time.time() < deadline:
        time.sleep(0.1)
        ranks = sorted(children_named(job.pid, "gpunet-bench"))
    if len(ranks) < 2:
        job.wait()
        return None
    # mpirun starts rank 0 (the sender) first; ask the sockets to be sure: the receiver holds the bytes.
    time.sleep(0.5)
    tx, rx = ranks
    m = None
    for _ in range(300):
        if received_bytes(rx) >= 64 << 20:
            break
        if received_bytes(tx) >= 64 << 20:
            tx, rx = rx, tx
            break
        time.sleep(0.05)
    m = measure(tx, rx, a.window)
    job.wait()
    subprocess.run(["rm", "-rf", out])
    return m


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=4)
    p.add_argument("--window", type=float, default=2)
    p.add_argument("--streams", type=int, default=1)
    p.add_argument("--tx-cpus", default="0")
    p.add_argument("--rx-cpus", default="1")
    p.add_argument("--msg", default="128K")
    p.add_argument("--tool", default="both", choices=["both", "ours", "iperf3"])
    a, extra = p.parse_known_args()
    extra = [x for x in extra if x != "--"]
    with open("/proc/loadavg") as f:
        print("load before:", f.read().strip())
    per = {t: {"tx": [], "rx": [], "ksoftirqd": []} for t in ("iperf3", "gpunet-bench")}
    for i in range(a.rounds):
        order = ["iperf3", "gpunet-bench"] if i % 2 == 0 else ["gpunet-bench", "iperf3"]
        for tool in order:
            if (tool == "iperf3" and a.tool == "ours") or (tool == "gpunet-bench" and a.tool == "iperf3"):
                continue
            m = run_iperf3(a) if tool == "iperf3" else run_ours(a, extra)
            if not m or m["bytes"] <= 0:
                print(f"{tool}: no flow seen", file=sys.stderr)
                continue
            r = report(tool, m)
            for k in r:
                per[tool][k].append(r[k])
    with open("/proc/loadavg") as f:
        print("load after:", f.read().strip())
    for tool, d in per.items():
        if d["tx"]:
            print(f"median {tool}: sender {statistics.median(d['tx']):.1f} ms CPU/GB, receiver {statistics.median(d['rx']):.1f}, ksoftirqd {statistics.median(d['ksoftirqd']):.1f}")


if __name__ == "__main__":
    main()
