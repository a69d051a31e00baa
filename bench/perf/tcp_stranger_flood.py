#!/usr/bin/env python3
"""Goodput of a real TCP flow while strangers hold idle connections open at its listener.

Runs `mpirun -np 2 BINARY --suites tcp --tcp-tests neighbours` on loopback, alternately with and
without a flood: from the plan line on, a flooder keeps up to --idle idle connections open at the ranks' listening
ports (the tcp suite's data listeners: the control channel's listener is closed once every rank is
in, and mpirun's own are left alone), reconnecting any the listener closes. Prints each run's flow goodput and the ratio of
the flooded runs' median to the quiet runs' median, per binary. Several binaries (for example the
build before and after a change) are run in turn, so machine noise falls on all of them alike.

Usage: tcp_stranger_flood.py [--runs N] [--idle K] [--tcp-time S] BINARY [BINARY...]
"""
import argparse, json, os, re, socket, statistics, subprocess, tempfile, threading, time
os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")

def listening_ports(pids):
    out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True).stdout
    ports = set()
    for line in out.splitlines():
        if '(("gpunet-bench' in line and any(f"pid={p}," in line for p in pids):  # the ranks, not mpirun
            m = re.search(r"127\.0\.0\.1:(\d+)|\[::1\]:(\d+)|0\.0\.0\.0:(\d+)|\*:(\d+)", line)
            if m: ports.add(int(next(g for g in m.groups() if g)))
    return ports

def bench_pids(binary):
    out = subprocess.run(["pgrep", "-f", binary], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]

def flood(binary, idle, go, stop, counts):
    go.wait()
    held = []
    while not stop.is_set():
        targets = sorted(listening_ports(bench_pids(binary)))  # the ranks' tcp data listeners
        held = [s for s in held if alive(s)]
        while targets and len(held) < idle:
            try:
                s = socket.create_connection(("127.0.0.1", targets[len(held) % len(targets)]), timeout=0.2)
                held.append(s)
                counts["opened"] += 1
            except OSError:
                break
        time.sleep(0.005)
    for s in held: s.close()

def alive(s):
    try:
        s.setblocking(False)
        return s.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False

def one_run(binary, tcp_time, flooded, idle):
    out = tempfile.mkdtemp(prefix="flood")
    go, stop, counts = threading.Event(), threading.Event(), {"opened": 0}
    t = threading.Thread(target=flood, args=(binary, idle, go, stop, counts)) if flooded else None
    if t: t.start()
    cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "--mca", "mpi_yield_when_idle", "1", "--mca", "btl", "self,vader",
           "-np", "2", binary, "--suites", "tcp", "--tcp-tests", "neighbours", "--tcp-time", str(tcp_time), "-o", out]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as run:
        for line in run.stdout:
            if line.startswith("# plan:"):
                go.set()  # every rank is in: the control channel's listener is closed
    go.set()
    if t: stop.set(); t.join()
    rep = json.load(open(f"{out}/report.json"))
    g = [r["figure"]["value"] for r in rep["results"] if r["suite"] == "tcp" and r.get("figure", {}).get("metric", "").endswith("goodput")]
    subprocess.run(["rm", "-rf", out])
    return statistics.median(g) if g else float("nan"), counts["opened"]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--idle", type=int, default=500)
    ap.add_argument("--tcp-time", type=float, default=3)
    ap.add_argument("binaries", nargs="+")
    a = ap.parse_args()
    res = {b: {True: [], False: []} for b in a.binaries}
    for i in range(a.runs):
        for flooded in (False, True):
            for b in a.binaries:
                g, opened = one_run(os.path.abspath(b), a.tcp_time, flooded, a.idle)
                res[b][flooded].append(g)
                print(f"run {i} {b} {'flood' if flooded else 'quiet'}: median flow {g:.2f} Gb/s"
                      + (f" ({opened} stranger connections opened)" if flooded else ""), flush=True)
    for b in a.binaries:
        q, f = statistics.median(res[b][False]), statistics.median(res[b][True])
        print(f"{b}: quiet {q:.2f} Gb/s, flooded {f:.2f} Gb/s, flooded/quiet {f / q:.3f}")

if __name__ == "__main__":
    main()
