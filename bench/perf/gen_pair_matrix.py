#!/usr/bin/env python3
"""Generates a results.jsonl of an all-pairs TCP matrix over HOSTS hosts, one record per ordered pair
(HOSTS x (HOSTS-1): 1,047,552 at 1,024 hosts), with every key the tcp suite writes in a flow's extra
(bench/suites/tcp/records.cpp: both links, addresses, buffers, times, bytes, stream bytes, the timeline and
its stability, both ends' CPU use, one stream's tcp_info) and its figure, keys sorted as the suite
writes them; about 2.13 KB a record.
--lean writes the smaller records these figures were first measured on until 2026-12-06 (hosts, ranks,
links, direction, streams, times, goodput, CPU use, timeline; keys unsorted; about 1.45 KB), the very
same file, to reproduce them.
SLOW hosts send and receive at a quarter of the rate.
--racks K puts the hosts under K leaf switches of one spine, writes the fabric as Slurm's
topology.conf to OUT.conf (for --fabric) and ends the file with the matrix record the suite writes
after its flows (hosts, the N x N goodput, suspects); --slow-uplink L runs every pair crossing leaf
L's uplink at a quarter of the rate.
It is the input of the scale benchmark for `gpunet-bench report` (bench/perf/pair_matrix_bench.sh).

usage: gen_pair_matrix.py [--hosts 1024] [--slow 3] [--lean] [--racks K [--slow-uplink L]] OUT"""
import argparse
import json
import random


def suite_keys(extra, s, d, g, tl, rnd):
    """The rest of what the tcp suite writes in a flow's extra, in its types."""
    sent = int(g / 8 * 1e9 * 0.5)
    p50 = sorted(tl)[len(tl) // 2]
    extra.update({"msg_bytes": 131072, "sndbuf_bytes": "auto", "rcvbuf_bytes": "auto",
                  "seconds": 0.5 + rnd.uniform(0.0, 0.02), "bytes_sent": sent,
                  "sender_seconds": 0.5 + rnd.uniform(0.0, 0.002), "stream_bytes": [sent],
                  "path": "network", "src_addr": f"10.{s // 250}.{s % 250}.1",
                  "dst_addr": f"10.{d // 250}.{d % 250}.1:{30000 + rnd.randrange(30000)}",
                  "rejected_connections": 0, "unauthenticated_connections": 0,
                  "stability": {"below_s": 0.0, "dips": [], "intervals": len(tl), "max_Gbps": max(tl),
                                "min_Gbps": min(tl), "p1_Gbps": min(tl), "p50_Gbps": p50,
                                "threshold_Gbps": 0.8 * p50},
                  "tcp_info": [{"bytes_acked": sent + 66, "bytes_retrans": rnd.randrange(0, 100000),
                                "cwnd_segments": rnd.randrange(10, 400), "mss_bytes": 8948, "pmtu_bytes": 9000,
                                "retransmits": rnd.randrange(0, 20), "rtt_us": rnd.randrange(20, 200),
                                "rttvar_us": rnd.randrange(2, 50), "timestamps": True}]})
    for end in ("sender", "receiver"):
        extra["cpu"][end]["core_busy_pct"] = None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hosts", type=int, default=1024)
    ap.add_argument("--slow", type=int, default=3)
    ap.add_argument("--lean", action="store_true")
    ap.add_argument("--racks", type=int, default=0)
    ap.add_argument("--slow-uplink", type=int, default=-1)
    ap.add_argument("out")
    a = ap.parse_args()
    per = -(-a.hosts // a.racks) if a.racks else a.hosts + 1  # hosts per leaf
    crosses_slow = lambda s, d: a.racks and a.slow_uplink >= 0 and (s // per == a.slow_uplink) != (d // per == a.slow_uplink)
    matrix = [[None] * a.hosts for _ in range(a.hosts)]
    rnd = random.Random(7)
    n = a.hosts
    hosts = [f"gpu-{i:04d}" for i in range(n)]
    slow = set(rnd.sample(range(n), a.slow)) if a.slow else set()
    lk = {"driver": "mlx5_core", "iface": "eth0", "ipv6": False, "kind": "ethernet", "loopback": False,
          "mtu": 9000, "speed_Mbps": 100000, "stated_rate_bps": None, "tcp_timestamps": True}
    prov = {"argv": ["gpunet-bench", "--suites", "tcp", "--tcp-tests", "matrix", "--tcp-time", "0.5"],
            "hosts": hosts, "ranks_per_node": [1] * n, "reduction": "max", "version": "0.1.0",
            "git_commit": "bench", "mpi_version": "", "hwloc_version": "", "cuda_version": "",
            "nccl_version": "", "start_time": "2026-12-01T00:00:00Z", "end_time": "2026-12-01T06:00:00Z"}
    with open(a.out, "w") as f:
        f.write(json.dumps({"provenance": prov, "topology": {"nodes": []}}, sort_keys=not a.lean) + "\n")
        rounds = n - 1 if n % 2 == 0 else n
        for s in range(n):
            for d in range(n):
                if s == d:
                    continue
                base = 94.0 * rnd.uniform(0.97, 1.0)
                g = base / 4 if (s in slow or d in slow or crosses_slow(s, d)) else base
                matrix[s][d] = g
                tl = [round(g * rnd.uniform(0.95, 1.05), 3) for _ in range(5)]
                rnd_no = (s + d) % rounds
                rec = {"suite": "tcp", "name": "bandwidth", "variant": "matrix", "kind": "tcp_flow",
                       "host": hosts[d], "rank": d, "ranks": n, "status": "passed", "reason": "",
                       "bytes": int(g / 8 * 1e9 * 0.5), "count": 1, "dtype": "", "op": "", "check": "off",
                       "wrong": 0, "algbw_GBps": g / 8, "busbw_GBps": 0.0,
                       "time_us": {"cv": 0.0, "max": 0.0, "mean": 0.0, "min": 0.0, "p50": 0.0, "p99": 0.0,
                                   "samples": 0, "stddev": 0.0},
                       "extra": {"src_host": hosts[s], "dst_host": hosts[d], "src_rank": s, "dst_rank": d,
                                 "link": lk, "dst_link": lk, "direction": "bidirectional", "streams": 1,
                                 "duration_s": 0.5, "interval_s": 0.1, "goodput_Gbps": g,
                                 "started_s": 0.6 * rnd_no, "concurrent_flows": n,
                                 "cpu": {"sender": {"cpu": 3, "pinned": False, "sys_pct": 40.0, "user_pct": 2.0},
                                         "receiver": {"cpu": 5, "pinned": False, "sys_pct": 55.0, "user_pct": 3.0}},
                                 "timeline_Gbps": tl},
                       "figure": {"better": "higher", "metric": "tcp.goodput", "path": "tcp_flow", "unit": "Gb/s",
                                  "parameters": {"direction": "bidirectional", "streams": "1", "test": "matrix"},
                                  "samples": tl, "value": g,
                                  "subject": {"kind": "pair", "host": hosts[s], "rank": s, "dst_host": hosts[d],
                                              "dst_rank": d}}}
                if not a.lean:
                    suite_keys(rec["extra"], s, d, g, tl, rnd)
                f.write(json.dumps(rec, separators=(",", ":"), sort_keys=not a.lean) + "\n")
        if a.racks:
            f.write(json.dumps(matrix_record(hosts, matrix), separators=(",", ":"), sort_keys=True) + "\n")
    if a.racks:
        with open(a.out + ".conf", "w") as conf:
            for k in range(0, n, per):
                conf.write(f"SwitchName=leaf{k // per} Nodes=gpu-[{k:04d}-{min(k + per, n) - 1:04d}]\n")
            conf.write(f"SwitchName=spine Switches=leaf[0-{(n - 1) // per}]\n")
    print(f"{n * (n - 1)} pair records, slow hosts: {', '.join(hosts[i] for i in sorted(slow))}")


def matrix_record(hosts, matrix, fraction=0.8):
    """The matrix record the tcp suite writes after its flows (bench/suites/tcp/matrix_records.cpp)."""
    best = max(g for row in matrix for g in row if g is not None)
    suspects = [{"src_host": hosts[s], "dst_host": hosts[d], "goodput_Gbps": g,
                 "why": f"{g:.3f} Gb/s is below {fraction:.0%} of the best pair"}
                for s, row in enumerate(matrix) for d, g in enumerate(row) if g is not None and g < fraction * best]
    return {"suite": "tcp", "name": "matrix", "variant": "all pairs", "kind": "tcp_matrix", "host": hosts[0],
            "rank": 0, "ranks": len(hosts), "status": "passed", "reason": "", "bytes": 0, "count": 1, "dtype": "",
            "op": "", "check": "off", "wrong": 0, "algbw_GBps": 0.0, "busbw_GBps": 0.0,
            "time_us": {"cv": 0.0, "max": 0.0, "mean": 0.0, "min": 0.0, "p50": 0.0, "p99": 0.0, "samples": 0,
                        "stddev": 0.0},
            "extra": {"hosts": hosts, "goodput_Gbps": matrix, "rows_are": "senders; columns are receivers",
                      "rounds": len(hosts) - 1, "best_Gbps": best, "suspect_fraction": fraction,
                      "suspects": suspects, "retests": []}}


if __name__ == "__main__":
    main()
