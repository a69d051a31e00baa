#!/usr/bin/env python3
"""Compares a GPU machine's gpunet-bench report with the ceilings and prints a summary.

Usage: gpu_compare.py REPORT.json [NVIDIA_SMI.txt] [RUN_EXIT_CODE]
Exit code 0 when every check passes, 1 otherwise. Used by ci/gpu-check.sh (see ci/GPU.md).

Ceilings (report/CEILINGS.md section 3): the encoded PCIe rate per direction, width lanes of
GT/s x line code / 8, and the same after TLP overhead, MPS / (MPS + 24) with 4-DW headers.
Pinned host-to-device and device-to-host copies from the GPU's NUMA node must reach 85% of the
encoded rate on Gen5 and later (55.4-57 GB/s is what Gen5 x16 reaches in public logs) and 75% on
older generations (77-84% reported).
"""
import json
import re
import sys

GTPS = {1: 2.5, 2: 5.0, 3: 8.0, 4: 16.0, 5: 32.0, 6: 64.0}
COLLECTIVES = ["allreduce", "allgather", "reduce_scatter", "broadcast", "reduce", "alltoall", "sendrecv"]


def pcie_encoded_GBps(gen, width):
    code = 0.8 if gen <= 2 else (128 / 130 if gen <= 5 else 242 / 256)
    return GTPS[gen] * code * width / 8


def tlp_efficiency(mps):
    return mps / (mps + 24)


def smi_links(path):
    """GPU index -> (max gen, max width) from nvidia-smi's CSV query, where present."""
    links = {}
    try:
        text = open(path).read()
    except OSError:
        return links
    for line in text.splitlines():
        f = [x.strip() for x in line.split(",")]
        if len(f) >= 5 and f[0].isdigit() and f[3].isdigit() and f[4].isdigit():
            links[int(f[0])] = (int(f[3]), int(f[4]))
    return links


class Summary:
    def __init__(self):
        self.lines, self.failed = [], 0

    def check(self, ok, what):
        self.lines.append(f"{'PASS' if ok else 'FAIL'}  {what}")
        self.failed += 0 if ok else 1

    def note(self, what):
        self.lines.append(f"      {what}")


def check_nccl(recs, s):
    nccl = [r for r in recs if r["suite"] == "nccl"]
    coll = [r for r in nccl if r["name"] in COLLECTIVES]
    if not coll:
        why = "; ".join(r["reason"] for r in nccl if r["reason"]) or "no nccl record"
        s.check(False, f"NCCL on one GPU: {why}")
        return
    for name in COLLECTIVES:
        rs = [r for r in coll if r["name"] == name and r["status"] != "skipped"]
        bad = [r for r in rs if r["status"] != "passed" or r["check"] != "ok"]
        top = max(rs, key=lambda r: r["bytes"]) if rs else None
        detail = f", {top['algbw_GBps']:.1f} GB/s algbw at {top['bytes']} B" if top else ""
        s.check(bool(rs) and not bad, f"NCCL {name}: {len(rs)} sizes in and out of place, data verified{detail}"
                + (f"; {len(bad)} wrong or failed" if bad else ""))
    for r in nccl:
        if r["name"] == "transport":
            n = r["extra"].get("nccl", {})
            s.note(f"NCCL {n.get('version', '?')} on {r['host']}: {n.get('note', 'log parsed')}")


def check_pcie(recs, smi, s):
    pcie = [r for r in recs if r["suite"] == "pcie"]
    if not pcie or all(r["status"] == "skipped" for r in pcie):
        s.check(False, "PCIe copies: " + ("; ".join(r["reason"] for r in pcie) or "no pcie record"))
        return
    bad = [r for r in pcie if r["status"] not in ("passed", "skipped") or r["check"] == "wrong"]
    s.check(not bad, f"PCIe copies: {len(pcie)} records, data verified" + (f"; {len(bad)} failed" if bad else ""))
    for r in pcie:
        if r["status"] != "passed":
            continue
        p = r["extra"].get("pcie", {})
        gpu = r["extra"].get("gpu_index", p.get("gpu_index"))
        gen, width = p.get("gen") or p.get("max_gen"), p.get("width") or p.get("max_width")
        source = "sysfs"
        if (not gen or not width) and gpu in smi:
            (gen, width), source = smi[gpu], "nvidia-smi"
        label = f"{r['name']} {r['variant']}: {r['algbw_GBps']:.2f} GB/s"
        if not gen or not width or gen not in GTPS:
            s.note(label + " (link unknown: no ceiling)")
            continue
        raw = pcie_encoded_GBps(gen, width)
        mps = p.get("mps") or 256
        tlp = raw * tlp_efficiency(mps)
        eff = r["algbw_GBps"] / raw
        text = (f"{label} = {eff:.0%} of Gen{gen} x{width} {raw:.2f} GB/s ({source}); "
                f"{r['algbw_GBps'] / tlp:.0%} of {tlp:.2f} GB/s after TLP headers at MPS {mps}")
        gated = r["name"] in ("h2d", "d2h") and " pinned " in f" {r['variant']} " and \
            ("local" in r["variant"] or "default" in r["variant"]) and not r["variant"].startswith("all")
        if gated:
            need = 0.85 if gen >= 5 else 0.75
            s.check(eff >= need, f"{text} (needs {need:.0%})")
        else:
            s.note(text)


def check_node(recs, s):
    mem = [r for r in recs if r["suite"] == "node" and r["name"].startswith("membw_")]
    bad = [r for r in mem if r["status"] != "passed"]
    s.check(bool(mem) and not bad, f"node memory bandwidth: {len(mem)} records" + (f", {len(bad)} failed" if bad else ""))
    for r in mem:
        if r["name"] == "membw_copy":
            s.note(f"{r['name']} {r['variant']}: {r['algbw_GBps']:.1f} GB/s")
    for r in recs:
        if r["suite"] == "node" and r["name"].startswith("pcie_") and r["status"] == "passed":
            s.note(f"node {r['name']} {r['variant']} (Google Benchmark, CUDA events): {r['algbw_GBps']:.2f} GB/s")


def check_topology(rep, recs, s):
    topo = [r for r in recs if r["suite"] == "topo"]
    if topo:
        bad = [r for r in topo if r["status"] == "failed"]
        s.check(not bad, f"topology discovery: {len(topo)} records" + (f", {len(bad)} failed" if bad else ""))
    else:
        s.note("topology: no topo suite in this build; lstopo's XML is in topology.xml")
    dumps = [r for r in recs if r["suite"] == "nccl" and r["name"] == "topology"]
    for r in dumps:
        s.note(f"NCCL topology dump: {r['extra'].get('nccl_topo_file')} ({r['status']}{': ' + r['reason'] if r['reason'] else ''})")
    for f in rep.get("findings", []):
        s.note(f"finding: {f.get('message', f)}")


def main(argv):
    rep = json.load(open(argv[1]))
    smi = smi_links(argv[2]) if len(argv) > 2 else {}
    run_rc = int(argv[3]) if len(argv) > 3 and re.fullmatch(r"-?\d+", argv[3]) else 0
    recs = rep["results"]
    s = Summary()
    s.check(run_rc == 0, f"gpunet-bench exit code {run_rc}")
    check_nccl(recs, s)
    check_pcie(recs, smi, s)
    check_node(recs, s)
    check_topology(rep, recs, s)
    prov = rep.get("provenance", {})
    print(f"gpunet-bench {prov.get('version')} ({prov.get('git_commit')}), CUDA {prov.get('cuda_version')}, "
          f"NCCL {prov.get('nccl_version')}, host {', '.join(sorted(set(prov.get('hosts', []))))}")
    print("\n".join(s.lines))
    print(f"GPU CHECK: {'PASS' if s.failed == 0 else 'FAIL'} ({s.failed} failed)")
    return 0 if s.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
