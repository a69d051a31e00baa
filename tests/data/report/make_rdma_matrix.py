#!/usr/bin/env python3
"""Writes rdma_matrix.json: a hand-made report (not a measurement) of `--suites rdma --rdma-mode matrix`
on four nodes, one of them slow, in the records the rdma suite writes (bench/suites/rdma/
pair_session.cpp): per pair of ranks (lower rank -> higher rank, one direction, as the suite runs
it), the connect record, WRITE bandwidth at the headline size (8 MiB, extra.src_host/dst_host: the
matrix cell) and latency at 2 B. rdma-node2's port trained at 4x EDR (100 Gb/s) where the others run
4x HDR (200 Gb/s): its pairs reach about half the others' rate, each near its own port's ceiling.
No figure carries a ceiling: the report's analysis derives it from extra.rdma. Run it only to change
the fixture."""
import json
import os

HOSTS = [f"rdma-node{i}" for i in range(4)]
SLOW = 2
MIB = 1 << 20


def port(i):
    speed = "EDR" if i == SLOW else "HDR"
    return {"link_layer": "InfiniBand", "device": "mlx5_0", "ib_mtu": 4096, "ipv6": False, "gid_type": "IB",
            "rate_Gbps": 100 if i == SLOW else 200, "ib_speed": speed, "width": 4}


def stats(mean_us, cv, samples):
    sd = mean_us * cv
    return {"min": round(mean_us - 1.5 * sd, 4), "p50": round(mean_us, 4), "mean": round(mean_us, 4),
            "p99": round(mean_us + 2.3 * sd, 4), "max": round(mean_us + 2.8 * sd, 4), "stddev": round(sd, 4),
            "cv": cv, "samples": samples}


def record(name, variant, a, b, bytes_=0, count=0, time_us=None, extra=None, figure=None):
    r = {"suite": "rdma", "name": name, "variant": variant, "bytes": bytes_, "count": count, "dtype": "", "op": "",
         "ranks": 4, "rank": a, "host": HOSTS[a], "status": "passed", "reason": "",
         "time_us": time_us or stats(0, 0, 0), "algbw_GBps": 0.0, "busbw_GBps": 0.0, "check": "off", "wrong": 0,
         "extra": extra or {}}
    if figure:
        r["figure"] = figure
    return r


def subject(a, b):
    return {"kind": "pair", "host": HOSTS[a], "rank": a, "dst_host": HOSTS[b], "dst_rank": b}


def pair_records(a, b):
    label = f"{a}<->{b}"
    slow = SLOW in (a, b)
    binding = b if b == SLOW else a  # the end with the lower ceiling
    out = [record("connect", label, a, b, extra={"qp": {"path_mtu": 4096}})]
    gbps = (96.1 if slow else 191.3) - 0.1 * (a + b)
    writes = 4
    mean_us = 8 * MIB * writes * 8 / (gbps * 1e3)
    bw = record("write_bw", label + " 8 MiB host", a, b, 8 * MIB, writes, stats(mean_us, 0.004, 200),
                {"writes_per_op": writes, "tx_depth": 128, "headline": True, "bw_Gbps": gbps,
                 "bw_peak_Gbps": gbps * 1.006, "src_host": HOSTS[a], "dst_host": HOSTS[b], "rdma": port(binding),
                 "rdma_binding_end": f"rank {binding} ({HOSTS[binding]})"},
                {"metric": "rdma.write.bw", "value": gbps, "unit": "Gb/s", "better": "higher", "path": "rdma_port",
                 "subject": subject(a, b), "parameters": {"bytes": str(8 * MIB), "memory": "host"}, "samples": []})
    bw["algbw_GBps"] = bw["busbw_GBps"] = gbps / 8
    out.append(bw)
    lat = 1.9 if slow else 1.6
    out.append(record("write_lat", label + " 2 B host", a, b, 2, 1, stats(lat, 0.03, 1000),
                      {"writes_per_op": 1, "tx_depth": 128, "latency": "half the round trip of a "
                       "WRITE-with-immediate ping-pong"},
                      {"metric": "rdma.write.latency", "value": lat, "unit": "us", "better": "lower", "path": "none",
                       "subject": subject(a, b), "parameters": {"bytes": "2", "memory": "host"}, "samples": []}))
    return out


def report():
    res = []
    for a in range(4):
        for b in range(a + 1, 4):
            res += pair_records(a, b)
    argv = ["gpunet-bench", "--suites", "rdma", "--rdma-mode", "matrix"]
    provenance = {"argv": argv, "hosts": HOSTS, "ranks_per_node": [1] * len(HOSTS), "version": "0.1.0",
                  "start_time": "2025-01-01T00:00:00Z", "end_time": "2025-01-01T00:01:10Z"}
    return {"schema_version": 2, "provenance": provenance, "results": res, "topology": {}, "findings": [], "extra": {}}


if __name__ == "__main__":
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "rdma_matrix.json"), "w") as out:
        out.write(json.dumps(report(), indent=1) + "\n")
