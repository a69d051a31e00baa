#!/usr/bin/env python3
"""Generates a synthetic results file for the rendering benchmark: RANKS ranks (8 per node), each with a
size sweep of SIZES message sizes (NCCL allreduce over NET/IB, per-rank records with link data), plus
the per-node topology with a GPU-NIC matrix. Writes a report.json, or results.jsonl with --jsonl.

usage: gen_results.py [--ranks 1000] [--sizes 30] [--jsonl] OUT"""
import argparse
import json
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranks", type=int, default=1000)
    ap.add_argument("--sizes", type=int, default=30)
    ap.add_argument("--jsonl", action="store_true")
    ap.add_argument("out")
    a = ap.parse_args()
    rnd = random.Random(42)
    per_node = 8
    nodes = (a.ranks + per_node - 1) // per_node
    hosts = [f"gpu-node-{r // per_node:04d}" for r in range(a.ranks)]
    extra = {"nccl": {"transport": "NET/IB", "nic": "mlx5_0", "algo": "Ring", "gdr": True}, "nodes": nodes,
             "nics_per_node": 8, "intra": {"kind": "nvlink", "gen": 4, "links": 18},
             "rdma": {"link_layer": "InfiniBand", "device": "mlx5_0", "ib_mtu": 4096, "rate_Gbps": 400}}
    results = []
    for rank in range(a.ranks):
        slow = rnd.random() < 0.01
        for i in range(a.sizes):
            size = 1024 << i
            peak = 330.0 * (0.5 if slow else 1.0)
            busbw = peak * size / (size + 4 * 1024 * 1024) * rnd.uniform(0.97, 1.0)
            algbw = busbw / (2 * (a.ranks - 1) / a.ranks)
            t = size / (algbw * 1e9) * 1e6
            cv = rnd.uniform(0.005, 0.05)
            results.append({
                "suite": "nccl", "name": "allreduce", "variant": "out-of-place", "bytes": size, "count": size // 4,
                "dtype": "float", "op": "sum", "ranks": a.ranks, "rank": rank, "host": hosts[rank],
                "status": "passed", "reason": "",
                "time_us": {"min": t * 0.98, "p50": t, "mean": t * 1.01, "p99": t * (1 + 3 * cv),
                            "max": t * (1 + 4 * cv), "stddev": t * cv, "cv": cv, "samples": 100},
                "algbw_GBps": algbw, "busbw_GBps": busbw, "check": "ok", "wrong": 0, "extra": extra})
    labels = [f"GPU{g}" for g in range(8)] + [f"mlx5_{n}" for n in range(8)]
    cells = [["X" if i == j else ("NV18" if i < 8 and j < 8 else ("PIX" if i % 8 == j % 8 else "SYS"))
              for j in range(16)] for i in range(16)]
    topo = {"nodes": [{"host": f"gpu-node-{n:04d}",
                       "gpus": [{"index": g, "pcie": {"gen": 5, "width": 16, "max_gen": 5, "max_width": 16},
                                 "nvlink": {"gen": 4, "links": 18}} for g in range(8)],
                       "nics": [{"name": f"mlx5_{k}", "kind": "infiniband", "link_layer": "InfiniBand",
                                 "rate_Gbps": 400} for k in range(8)],
                       "matrix": {"labels": labels, "cells": cells}} for n in range(nodes)]}
    prov = {"argv": ["gpunet-bench", "--suites", "nccl"], "hosts": hosts, "ranks_per_node": [per_node] * nodes,
            "reduction": "max", "version": "0.1.0", "git_commit": "bench", "mpi_version": "", "hwloc_version": "",
            "cuda_version": "", "nccl_version": "", "start_time": "", "end_time": ""}
    with open(a.out, "w") as f:
        if a.jsonl:
            f.write(json.dumps({"provenance": prov, "topology": topo}) + "\n")
            for r in results:
                f.write(json.dumps(r) + "\n")
        else:
            json.dump({"schema_version": 1, "provenance": prov, "results": results, "topology": topo,
                       "findings": [], "extra": {}}, f)


if __name__ == "__main__":
    main()
