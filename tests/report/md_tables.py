#!/usr/bin/env python3
"""Parses report.md into its tables and checks each table's columns against the set its kind has.

    md_tables.py REPORT_MD [--require TITLE_PREFIX]...

A table is known by the heading above it. Every table whose heading starts with a known title must
have exactly that kind's columns; a table under a heading of no known kind fails unless it belongs
to a section this script does not judge (run, training, acceptance, networks, topology). Also fails
on a row that says "the record carries no bandwidth figure", a header without its unit where the
kind has one, and a CV column that is not in %. Prints one line per table; exit 1 on a problem.
Importable: tables(path) returns [(section, heading, headers, rows)].
"""
import re
import sys

LEAD = ["size (B)", "count (elements)", "type", "redop"]
SWEEP = LEAD + ["time (us)", "algbw (GB/s)", "busbw (GB/s)", "#wrong", "p50 (us)", "p99 (us)", "CV (%)",
                "ceiling (GB/s)", "efficiency (%)", "status"]
PAIRED = LEAD + [f"{v} {c}" for v in ("out-of-place", "in-place")
                 for c in ("time (us)", "algbw (GB/s)", "busbw (GB/s)", "#wrong", "CV (%)", "efficiency (%)")] + \
    ["ceiling (GB/s)", "status"]
KINDS = {  # heading prefix -> columns (None: the matrix, whose columns are its hosts)
    "Summary": ["path", "figure", "subject", "value", "ceiling", "unit", "efficiency (%)"],
    "TCP pair matrix": None,
    "RDMA pair matrix": None,
    "TCP flows": ["sender", "receiver", "test", "streams", "goodput (Gb/s)", "ceiling (Gb/s)", "efficiency (%)",
                  "dips", "sender transfer (GB)", "sender bitrate (Gb/s)", "sender Retr", "receiver transfer (GB)",
                  "receiver bitrate (Gb/s)", "CPU sender / receiver", "status"],
    "TCP one-to-many": ["test", "sender", "receiver", "streams", "goodput (Gb/s)", "ceiling (Gb/s)", "efficiency (%)",
                        "received (B)", "status"],
    "TCP many-to-one": ["test", "sender", "receiver", "streams", "goodput (Gb/s)", "ceiling (Gb/s)", "efficiency (%)",
                        "received (B)", "status"],
    "TCP latency": ["pair", "size (B)", "samples", "p50 (us)", "p90 (us)", "p99 (us)", "p99.9 (us)", "max (us)",
                    "jitter (us)", "status"],
    "RDMA latency": ["pair", "memory", "size (B)", "iterations", "t_min (us)", "t_max (us)", "t_typical (us)",
                     "t_avg (us)", "t_stdev (us)", "99% percentile (us)", "99.9% percentile (us)", "status"],
    "RDMA WRITE bandwidth": ["pair", "memory", "direction", "size (B)", "BW peak (Gb/s)", "BW average (Gb/s)",
                             "MsgRate (Mpps)", "ceiling (Gb/s)", "efficiency (%)", "#wrong", "status"],
    "PCIe host-device copies": ["host", "GPU", "direction", "host memory", "NUMA node", "size (B)",
                                  "bandwidth (GB/s)", "p50 (us)", "CV (%)", "link", "ceiling (GB/s)",
                                  "efficiency (%)", "#wrong", "status"],
    "Host memory bandwidth": ["host", "NUMA node", "kernel", "threads", "size (B)", "bandwidth (GB/s)", "p50 (us)",
                              "CV (%)", "samples", "check", "status"],
    "Other figures": ["suite", "metric", "subject", "value", "unit", "ceiling", "efficiency (%)", "status"],
    "Checks and skips": ["suite", "name", "variant", "host", "status", "what it says"],
}
COLLECTIVE_SECTION = "Collective sweeps"
UNJUDGED = ("Run", "Training impact", "Acceptance", "Baseline", "Networks measured", "Topology", "What is wrong")


def cells(line):
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def tables(path):
    out, section, heading, block = [], "", "", []
    lines = open(path, encoding="utf-8").read().split("\n") + [""]
    for line in lines:
        if line.startswith("|"):
            block.append(line)
            continue
        if block:
            head = cells(block[0])
            rows = [cells(b) for b in block[2:]]
            out.append((section, heading, head, rows))
            block = []
        m = re.match(r"^(#{2,4}) (.*)$", line)
        if m:
            if len(m[1]) == 2:
                section = heading = m[2]
            else:
                heading = m[2]
    return out


def expected(section, heading, head):
    if section == COLLECTIVE_SECTION:
        if "one per rank" in heading:
            return head[:4] == LEAD and "median efficiency (%)" in head, "family"
        return (head == PAIRED, "paired sweep") if "out-of-place time (us)" in head else (head == SWEEP, "sweep")
    for prefix, cols in KINDS.items():
        if heading.startswith(prefix):
            if cols is None:
                return head[0] == "sender / receiver" and all(h.endswith("(Gb/s, %)") for h in head[1:]), prefix
            return head == cols, prefix
    return None, None


def check(path, required=()):
    problems, seen = [], set()
    text = open(path, encoding="utf-8").read()
    if "carries no bandwidth figure" in text:
        problems.append("a row says the record carries no bandwidth figure")
    for section, heading, head, rows in tables(path):
        if section.startswith(UNJUDGED) or heading.startswith(UNJUDGED):
            continue
        ok, kind = expected(section, heading, head)
        if ok is None:
            problems.append(f"table under '{section} / {heading}' is of no known kind: {head}")
            continue
        seen.add(kind)
        print(f"{kind:28} {len(rows):4} rows  {heading}")
        if not ok:
            problems.append(f"'{heading}': columns {head} are not the {kind} columns")
        if any(len(r) != len(head) for r in rows):
            problems.append(f"'{heading}': a row has {len(rows[0])} cells for {len(head)} columns")
        for i, h in enumerate(head):
            if h.lower().startswith("cv") and h != "CV (%)" and not h.endswith(" CV (%)"):
                problems.append(f"'{heading}': CV column '{h}' is not in %")
    for r in required:
        if not any(k.startswith(r) for k in seen):
            problems.append(f"no table of kind '{r}' in {path}")
    return problems


if __name__ == "__main__":
    args = sys.argv[1:]
    required = [args[i + 1] for i, a in enumerate(args) if a == "--require"]
    files = [a for i, a in enumerate(args) if a != "--require" and (i == 0 or args[i - 1] != "--require")]
    problems = [p for f in files for p in check(f, required)]
    for p in problems:
        print("FAIL:", p)
    sys.exit(1 if problems else 0)
