#!/usr/bin/env python3
"""Renders the report fixtures with the real renderer and checks the files it writes:
report.json against the JSON Schema shipped in report/schema/ (python3-jsonschema), junit.xml as
well-formed XML with the right counts, sweeps.csv as RFC 4180 with one row per collective sweep record.
Also checks that the schema rejects broken reports, so this test can fail.

usage: validate_outputs.py RENDER_TOOL SOURCE_DIR"""
import copy
import csv
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed (ci/setup.sh --tests installs it)")
    sys.exit(77)


def render(tool, src, out):
    r = subprocess.run([tool, src, "-o", out], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        sys.exit(f"FAIL: {tool} {src} exited {r.returncode}: {r.stderr.strip()}")


def check(cond, msg):
    if not cond:
        sys.exit("FAIL: " + msg)


def main():
    tool, source = sys.argv[1], sys.argv[2]
    with open(os.path.join(source, "report/schema/report.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    data = os.path.join(source, "tests/data/report")
    for name in ("fixture.json", "hostile.json"):
        with tempfile.TemporaryDirectory() as out:
            render(tool, os.path.join(data, name), out)
            with open(os.path.join(out, "report.json")) as f:
                report = json.load(f)
            errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
            check(not errors, f"{name}: report.json breaks the schema: " +
                  "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5]))
            n = len(report["results"])
            figures = [r["figure"] for r in report["results"] if "figure" in r]
            check(name == "hostile.json" or figures, f"{name}: no record carries a figure")
            check(all("ceiling" in f for f in figures), f"{name}: a figure was not analysed")

            root = ET.parse(os.path.join(out, "junit.xml")).getroot()
            # one testcase per record, and the run verdict's testcase (testsuite "verdict")
            verdict = report["extra"]["run_verdict"]["verdict"]
            cases = root.findall("./testsuite[@name!='verdict']/testcase")
            check(root.tag == "testsuites" and int(root.get("tests")) == n + 1 and n == len(cases),
                  f"{name}: junit.xml has {len(cases)} testcases for {n} records")
            verdict_cases = root.findall("./testsuite[@name='verdict']/testcase")
            check(len(verdict_cases) == 1 and verdict_cases[0].get("name") == "run verdict " + verdict,
                  f"{name}: junit.xml's run verdict is not report.json's {verdict}")
            failed = sum(1 for r in report["results"]
                         if r["status"] in ("failed", "timed_out") or r["wrong"] > 0 or r["check"] == "wrong")
            skipped = sum(1 for r in report["results"] if r["status"] == "skipped")
            failed_all = failed + (verdict == "FAIL")
            check(len(root.findall("./testsuite/testcase/failure")) == failed_all == int(root.get("failures")),
                  f"{name}: junit failures do not match the records and the verdict")
            skipped_all = skipped + (verdict == "INCOMPLETE")
            check(len(root.findall("./testsuite/testcase/skipped")) == skipped_all == int(root.get("skipped")),
                  f"{name}: junit skips do not match the records and the verdict")

            with open(os.path.join(out, "sweeps.csv"), newline="") as f:
                rows = list(csv.reader(f))
            # sweeps.csv holds the collective sweeps (the other kinds have their own CSV files)
            sized = sum(1 for r in report["results"]
                        if r["bytes"] > 0 and r["status"] != "skipped" and r["suite"] in ("mpi", "nccl"))
            check(len(rows) == sized + 1, f"{name}: sweeps.csv has {len(rows) - 1} rows for {sized} collective records")
            check(all(len(r) == len(rows[0]) for r in rows), f"{name}: sweeps.csv rows differ in length")

    # The schema must reject what is not a report: missing parts, wrong types, a bad ceiling.
    with tempfile.TemporaryDirectory() as out:
        render(tool, os.path.join(data, "fixture.json"), out)
        with open(os.path.join(out, "report.json")) as f:
            good = json.load(f)
    broken = []
    b = copy.deepcopy(good); del b["results"]; broken.append(("no results", b))
    b = copy.deepcopy(good); b["results"][0]["status"] = "great"; broken.append(("bad status", b))
    b = copy.deepcopy(good); b["results"][0]["bytes"] = -1; broken.append(("negative bytes", b))
    b = copy.deepcopy(good); b["results"][0]["figure"]["ceiling"] = {"known": True, "value": 1}
    broken.append(("ceiling without derivation", b))
    b = copy.deepcopy(good); b["extra"]["analysis"]["verdict"] = "MAYBE"; broken.append(("bad verdict", b))
    b = copy.deepcopy(good); b["schema_version"] = 1; broken.append(("other schema version", b))
    b = copy.deepcopy(good); b["results"][0]["figure"]["subject"]["kind"] = "rack"; broken.append(("bad subject", b))
    for what, doc in broken:
        check(not validator.is_valid(doc), f"the schema accepts a report with {what}")
    print(f"ok: 2 fixtures valid against the schema, {len(broken)} broken reports rejected")


if __name__ == "__main__":
    main()
