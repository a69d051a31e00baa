#!/usr/bin/env python3
"""Writes fixture.json: a fixed, hand-made set of results (not a measurement) that exercises every part
of the report: sweeps, a host-pair matrix with one slow link, a stability timeline, latency, loopback,
skipped / failed / timed-out records, PCIe and RDMA figures, a 2-node Tree result above its ceiling,
a scaling sweep and per-node topology. Run it only to change the fixture; the golden files follow
with GPUNET_UPDATE_GOLDEN=1."""
import json
import math
import os

HOSTS = ["node-a", "node-b", "node-c"]
TBF_LINK = {"kind": "ethernet", "iface": "veth0", "speed_Mbps": 10000, "mtu": 1500, "ipv6": False,
            "tcp_timestamps": True, "vlan": False, "shaped_rate_bps": 1e9}


def stats(mean_us, cv=0.02, samples=50):
    sd = mean_us * cv
    return {"min": round(mean_us - 1.5 * sd, 3), "p50": round(mean_us, 3), "mean": round(mean_us, 3),
            "p99": round(mean_us + 2.3 * sd, 3), "max": round(mean_us + 2.8 * sd, 3),
            "stddev": round(sd, 3), "cv": cv, "samples": samples}


def record(suite, name, variant="", bytes_=0, count=0, dtype="", op="", ranks=1, rank=0, host="node-a",
           status="passed", reason="", time_us=None, algbw=0.0, busbw=0.0, check="off", wrong=0, extra=None):
    return {"suite": suite, "name": name, "variant": variant, "bytes": bytes_, "count": count, "dtype": dtype,
            "op": op, "ranks": ranks, "rank": rank, "host": host, "status": status, "reason": reason,
            "time_us": time_us or stats(0, 0, 0), "algbw_GBps": algbw, "busbw_GBps": busbw, "check": check,
            "wrong": wrong, "extra": extra or {}}


def collective(suite, name, size, busbw, ranks, factor, extra, status="passed", reason="", wrong=0, cv=0.02):
    algbw = busbw / factor
    t = size / (algbw * 1e9) * 1e6 if algbw > 0 else 0
    return record(suite, name, "out-of-place", size, size // 4, "float", "sum", ranks, 0, "node-a", status,
                  reason, stats(t, cv) if status == "passed" else None, round(algbw, 6) if status == "passed" else 0,
                  round(busbw, 6) if status == "passed" else 0, "ok" if wrong == 0 else "wrong", wrong, extra)


def main():
    M = 1 << 20
    res = []
    mpi_extra = {"link": TBF_LINK, "nodes": 3}
    for size, bw in ((M, 0.0851), (4 * M, 0.1049), (16 * M, 0.1121), (64 * M, 0.1142)):
        res.append(collective("mpi", "allreduce", size, bw, 3, 4 / 3, mpi_extra))
    for size, bw in ((M, 0.0712), (4 * M, 0.0934), (16 * M, 0.1008)):
        res.append(collective("mpi", "allgather", size, bw, 3, 2 / 3, mpi_extra))
    res.append(collective("mpi", "allgather", 64 * M, 0, 3, 2 / 3, mpi_extra, status="timed_out",
                          reason="step exceeded --timeout 120 s: rank 2 (node-c) still in MPI_Allgather"))
    res.append(collective("mpi", "broadcast", 16 * M, 0.0990, 3, 1.0, mpi_extra, status="failed",
                          reason="12 wrong elements on rank 1 (node-b)", wrong=12))
    # Scaling sweep of allreduce at 64 MiB over 1..3 nodes.
    for nodes, bw in ((1, 2.91), (2, 0.1151), (3, 0.1139)):
        r = collective("mpi", "scaling", 64 * M, bw, nodes, 2 * (nodes - 1) / nodes if nodes > 1 else 1.0,
                       {"link": TBF_LINK, "nodes": nodes})
        r["variant"] = "allreduce"
        res.append(r)
    # Host-pair TCP matrix: node-c -> node-a is the bad link.
    for src in HOSTS:
        for dst in HOSTS:
            if src == dst:
                continue
            slow = (src, dst) == ("node-c", "node-a")
            g = 0.4812 if slow else 0.9531 - 0.001 * HOSTS.index(dst)
            extra = {"link": TBF_LINK, "src_host": src, "dst_host": dst, "goodput_Gbps": g, "streams": 1,
                     "retransmits": 37 if slow else 0}
            res.append(record("tcp", "pair", src + "->" + dst, host=src, ranks=2, time_us=stats(10e6, 0.01, 10),
                              extra=extra))
    timeline = [{"t_s": float(t), "Gbps": round(0.951 - (0.31 if t in (11, 12) else 0) + 0.002 * math.sin(t), 4)}
                for t in range(0, 20)]
    res.append(record("tcp", "stability", "node-a->node-b", host="node-a", ranks=2, time_us=stats(20e6, 0.0, 1),
                      extra={"link": TBF_LINK, "goodput_Gbps": 0.9201, "timeline": timeline, "streams": 1}))
    res.append(record("tcp", "latency", "node-a<->node-b 1 B", host="node-a", ranks=2,
                      time_us=stats(61.8, 0.18, 10000), extra={"link": TBF_LINK, "rtt_us": 61.8}))
    res.append(record("tcp", "loopback", "lo", host="node-a", ranks=1, time_us=stats(5e6, 0.01, 5),
                      extra={"link": {"kind": "loopback", "iface": "lo", "loopback": True}, "goodput_Gbps": 38.2}))
    # NCCL over the 1GbE socket although an HDR NIC is there; and 2-node Tree above the Ring ceiling.
    sock = {"nccl": {"transport": "NET/Socket", "iface": "eth0", "algo": "Ring"}, "nodes": 3,
            "intra": {"kind": "pcie", "gen": 4, "width": 16},
            "link": {"kind": "ethernet", "iface": "eth0", "speed_Mbps": 1000, "mtu": 1500}}
    for size, bw in ((16 * M, 0.0402), (256 * M, 0.0451)):
        res.append(collective("nccl", "allreduce", size, bw, 6, 2 * 5 / 6, sock, cv=0.21))
    tree = {"nccl": {"transport": "NET/IB", "nic": "mlx5_0", "algo": "Tree", "gdr": True}, "nodes": 2,
            "nics_per_node": 1, "intra": {"kind": "nvlink", "gen": 3, "links": 12},
            "rdma": {"link_layer": "InfiniBand", "device": "mlx5_0", "ib_mtu": 4096, "rate_Gbps": 200}}
    r = collective("nccl", "allreduce", 1 << 30, 27.6, 16, 2 * 15 / 16, tree)
    r["variant"] = "in-place"
    res.append(r)
    res.append(record("nccl", "allgather", status="skipped", host="node-c",
                      reason="no GPU on this node (cudaGetDeviceCount: no CUDA-capable device is detected)"))
    # PCIe copies: GPU 1 of node-a trained at x8; a D2H copy from the far NUMA node.
    for size, bw in ((M, 9.8), (64 * M, 13.1)):
        res.append(record("pcie", "h2d", "pinned, copy engine", size, size, "byte", "", 1, 0, "node-a",
                          time_us=stats(size / (bw * 1e9) * 1e6, 0.01), algbw=bw,
                          extra={"pcie": {"gpu_index": 1, "mps": 256, "host_numa": 0, "gpu_numa": 0}}))
    res.append(record("pcie", "d2h", "pinned, copy engine", 64 * M, 64 * M, "byte", "", 1, 0, "node-a",
                      time_us=stats(64 * M / 19.0e9 * 1e6, 0.01), algbw=19.0,
                      extra={"pcie": {"gpu_index": 0, "mps": 256, "host_numa": 1, "gpu_numa": 0}}))
    # RDMA write bandwidth: a healthy HDR port, and one whose NIC sits in a Gen3 x16 slot.
    res.append(record("rdma", "write_bw", "mlx5_0 -> node-b", host="node-a", ranks=2, time_us=stats(2e6, 0.01, 20),
                      extra={"bw_Gbps": 187.5, "rdma": {"link_layer": "InfiniBand", "device": "mlx5_0",
                                                        "ib_mtu": 4096, "rate": "200 Gb/sec (4X HDR)"}}))
    res.append(record("rdma", "write_bw", "mlx5_0 -> node-c", host="node-b", rank=1, ranks=2,
                      time_us=stats(2e6, 0.01, 20),
                      extra={"bw_Gbps": 109.3, "rdma": {"link_layer": "InfiniBand", "device": "mlx5_0",
                                                        "ib_mtu": 4096, "ib_speed": "HDR", "width": 4,
                                                        "pcie": {"gen": 3, "width": 16, "mps": 256}}}))

    def node(host, gpu1_width, path0):
        return {"host": host,
                "gpus": [{"index": 0, "name": "NVIDIA A100-SXM4-40GB", "bdf": "0000:07:00.0", "numa": 0,
                          "pcie": {"gen": 4, "width": 16, "max_gen": 4, "max_width": 16}},
                         {"index": 1, "name": "NVIDIA A100-SXM4-40GB", "bdf": "0000:0f:00.0", "numa": 0,
                          "pcie": {"gen": 4, "width": gpu1_width, "max_gen": 4, "max_width": 16}}],
                "nics": [{"name": "mlx5_0", "kind": "infiniband", "link_layer": "InfiniBand", "rate_Gbps": 200,
                          "numa": 1},
                         {"name": "eth0", "kind": "ethernet", "speed_Mbps": 1000, "mtu": 1500, "numa": 0}],
                "paths": [{"gpu": 0, "nic": "mlx5_0", "class": path0}, {"gpu": 1, "nic": "mlx5_0", "class": path0}],
                "matrix": {"labels": ["GPU0", "GPU1", "mlx5_0", "eth0"],
                           "cells": [["X", "NV12", path0, "NODE"], ["NV12", "X", path0, "NODE"],
                                     [path0, path0, "X", "SYS"], ["NODE", "NODE", "SYS", "X"]]}}

    rep = {"schema_version": 1,
           "provenance": {"argv": ["gpunet-bench", "--suites", "mpi,tcp,nccl,pcie,rdma", "-b", "1M", "-e", "64M"],
                          "hosts": HOSTS, "ranks_per_node": [1, 1, 1], "reduction": "max", "version": "0.1.0",
                          "git_commit": "0123456789ab", "mpi_version": "Open MPI v4.1.4",
                          "hwloc_version": "2.9.0", "cuda_version": "", "nccl_version": "",
                          "start_time": "2025-01-01T00:00:00Z", "end_time": "2025-01-01T00:07:30Z"},
           "results": res,
           "topology": {"nodes": [node("node-a", 8, "SYS"), node("node-b", 16, "PIX"), node("node-c", 16, "PIX")]},
           "findings": [{"severity": "warning", "message": "node-a: GPU 1 link is Gen4 x8, the others are x16"}],
           "extra": {}}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixture.json")
    with open(path, "w") as f:
        json.dump(rep, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
