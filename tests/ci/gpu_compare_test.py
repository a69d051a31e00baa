#!/usr/bin/env python3
"""ci/gpu_compare.py, the GPU machine's verdict: PCIe ceilings as report/CEILINGS.md section 3 tabulates them,
the 85% rule for pinned H2D on Gen5 x16, the nvidia-smi fallback for the link, and a report from a
machine without a GPU failing with the reason."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "..", "..", "ci", "gpu_compare.py")
spec = importlib.util.spec_from_file_location("gpu_compare", script)
gc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gc)


def near(a, b, tol=0.01):
    assert abs(a - b) <= tol, (a, b)


# Encoded x16 rates and the MPS 256 / 4-DW TLP figures of report/CEILINGS.md section 3.
near(gc.pcie_encoded_GBps(3, 16), 15.754)
near(gc.pcie_encoded_GBps(4, 16), 31.508)
near(gc.pcie_encoded_GBps(5, 16), 63.015)
near(gc.pcie_encoded_GBps(6, 16), 121.0)
near(gc.pcie_encoded_GBps(2, 16), 8.0)
near(gc.pcie_encoded_GBps(5, 16) * gc.tlp_efficiency(256), 57.61)
near(gc.pcie_encoded_GBps(4, 16) * gc.tlp_efficiency(128), 26.53)


def rec(suite, name, variant="", status="passed", check="ok", algbw=0.0, extra=None, bytes_=1 << 29, reason=""):
    return {"suite": suite, "name": name, "variant": variant, "status": status, "check": check, "algbw_GBps": algbw,
            "bytes": bytes_, "extra": extra or {}, "reason": reason, "host": "gpu-a"}


def report(h2d, pcie_extra):
    recs = [rec("nccl", c, v, algbw=100.0) for c in gc.COLLECTIVES for v in ("out-of-place", "in-place")]
    recs += [rec("nccl", "transport", "rank 0", check="off", extra={"nccl": {"version": "2.28.9+cuda13.0"}})]
    recs += [rec("pcie", "h2d", "gpu0 pinned local", algbw=h2d, extra={"pcie": pcie_extra, "gpu_index": 0}),
             rec("pcie", "d2h", "gpu0 pinned local", algbw=56.0, extra={"pcie": pcie_extra, "gpu_index": 0}),
             rec("pcie", "h2d", "gpu0 pageable local", algbw=20.0, extra={"pcie": pcie_extra, "gpu_index": 0})]
    recs += [rec("node", "membw_copy", "numa0 16 threads", check="ok", algbw=80.0)]
    return {"results": recs, "provenance": {"hosts": ["gpu-a"]}, "findings": []}


def run(rep, smi_text=""):
    with tempfile.TemporaryDirectory() as d:
        p, s = os.path.join(d, "report.json"), os.path.join(d, "smi.txt")
        json.dump(rep, open(p, "w"))
        open(s, "w").write(smi_text)
        r = subprocess.run([sys.executable, script, p, s, "0"], capture_output=True, text=True)
        return r.returncode, r.stdout


gen5 = {"gen": 5, "width": 16, "mps": 256}
code, out = run(report(55.3, gen5))
assert code == 0, out
assert "PASS  h2d gpu0 pinned local: 55.30 GB/s = 88% of Gen5 x16 63.02 GB/s" in out, out
assert "GPU CHECK: PASS" in out, out

code, out = run(report(50.0, gen5))  # 79% of 63 GB/s: below the 85% a Gen5 x16 link should give
assert code == 1 and "FAIL  h2d gpu0 pinned local: 50.00 GB/s = 79%" in out, out

# The VM shows no link in sysfs: nvidia-smi's maximum generation and width are used instead.
smi = "index, name, pci.bus_id, pcie.link.gen.max, pcie.link.width.max, pcie.link.gen.current, pcie.link.width.current\n" \
      "0, NVIDIA H200, 00000000:18:00.0, 5, 16, 1, 16\n"
code, out = run(report(56.0, {}), smi)
assert code == 0 and "(nvidia-smi)" in out, out
code, out = run(report(56.0, {}))
assert "link unknown: no ceiling" in out, out

# A machine without a GPU: the skips fail the check, with their reasons.
nogpu = {"results": [rec("nccl", "collectives", status="skipped", check="off", reason="no usable GPU: cudaGetDeviceCount: X"),
                     rec("pcie", "copies", status="skipped", check="off", reason="no usable GPU: cudaGetDeviceCount: X")],
         "provenance": {}, "findings": []}
code, out = run(nogpu)
assert code == 1 and "FAIL  NCCL on one GPU: no usable GPU" in out and "FAIL  PCIe copies: no usable GPU" in out, out
print("ok")
