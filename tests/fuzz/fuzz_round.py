#!/usr/bin/env python3
"""A fuzz round through the real binary, counted by class: hostile inputs of every kind the program
reads (spec, baseline, report.json, results.jsonl, hwloc XML, NCCL XML, fabric file, the command line,
and one-rank runs), each run once with a time limit. Prints one table row per kind: runs, exit codes,
crashes (a signal or a sanitizer report), runs over the hang bound, and other misbehaviour (exit 2
without exactly one line, an error line longer than MAX_LINE, a non-finite number printed by
`report`). Exits 1 when any kind has a crash, a hang or an exit code other than 0/1/2/4.

Not a CI test (a round takes minutes): CI runs the smaller samples in process_fuzz.py, cli_fuzz.py and
fuzz_tests. Run it on the sanitizer build (ci/test.sh --all configures it) to count sanitizer reports:

  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \\
    python3 tests/fuzz/fuzz_round.py build-nocuda-sanitize/gpunet-bench . --cases 250 --seed 31

Usage: fuzz_round.py BINARY SOURCE_DIR [--cases N per kind] [--seed S] [--jobs J] [--hang-s 20]
"""
import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_fuzz  # noqa: E402  (mutators and the command-line seeds)
import process_fuzz  # noqa: E402

MAX_LINE = cli_fuzz.MAX_LINE
SANITIZER_MARKS = cli_fuzz.SANITIZER_MARKS
NON_FINITE = re.compile(r"(^|[^A-Za-z0-9_.])-?(inf|nan|Infinity|NaN)([^A-Za-z0-9_]|$)", re.M)


def nested_quantifier_spec(rng):
    """A spec whose nic.match is a pattern built to run long: nested counted or starred groups."""
    atom = rng.choice(["a", ".", "[a-z]", "(a|a)", "\\w"])
    pattern = atom
    for _ in range(rng.randint(1, 5)):
        pattern = "(" + pattern + ")" + rng.choice(["*", "+", "{255}", "{1000}", "{2,}", "{0,65535}", "?"])
    pattern += rng.choice(["", "b", "$", "\\1"])
    return json.dumps({"spec_version": 2, "nic": {"count": 1, "match": pattern}}).encode()


def null_field(rng, text):
    """A JSON document with one value (any depth) replaced by null."""
    try:
        doc = json.loads(text)
    except ValueError:
        return text
    places = []

    def walk(v, parent, key):
        if parent is not None:
            places.append((parent, key))
        if isinstance(v, dict):
            for k in list(v):
                walk(v[k], v, k)
        elif isinstance(v, list):
            for i, e in enumerate(v[:40]):
                walk(e, v, i)

    walk(doc, None, None)
    if places:
        parent, key = rng.choice(places)
        parent[key] = None
    return json.dumps(doc).encode()


def mutate_fabric(rng, text):
    lines = text.decode().splitlines()
    op = rng.randrange(5)
    if op == 0:
        lines.append(f"SwitchName=big Nodes=node[1-{rng.choice([10**6, 10**9, 2**63])}]")
    elif op == 1:
        lines.append("SwitchName=spine Switches=spine")  # a loop
    elif op == 2 and lines:
        i = rng.randrange(len(lines))
        lines[i] = lines[i] + rng.choice([" LinkSpeed=1e999", " LinkSpeed=-1", " LinkSpeed=nan", " Nodes=", " Nodes=[", "=" * 500])
    elif op == 3:
        lines = lines * rng.choice([2, 1000])
    else:
        return process_fuzz.mutate_bytes(rng, text)
    return ("\n".join(lines) + "\n").encode()


def file_kinds(src, out):
    read = lambda p: open(os.path.join(src, p), "rb").read()
    topo = os.path.join(src, "tests/data/topologies")
    report = read("tests/data/report/fixture.json")
    jsonl = process_fuzz.jsonl_of(report)
    specs = [read("ci/spec-example.json"), read("tests/data/spec/fabric-spec.json")]
    baseline = b'{"gpunet_baseline": 1, "figures": {}}'
    fabric = b"SwitchName=leaf0 Nodes=node[01-04]\nSwitchName=leaf1 Nodes=node[05-08] LinkSpeed=100\nSwitchName=spine Switches=leaf[0-1]\n"
    hwloc = [open(os.path.join(topo, f), "rb").read() for f in sorted(os.listdir(topo))
             if f.endswith(".xml") and not f.startswith("nccl")]
    mj = process_fuzz.mutate_json

    def json_or_null(rng, text):
        return null_field(rng, text) if rng.random() < 0.3 else mj(rng, text)

    def spec_mutation(rng, text):
        return nested_quantifier_spec(rng) if rng.random() < 0.25 else json_or_null(rng, text)

    return {
        "spec": (specs, spec_mutation, lambda f: ["--check", "--spec", f], (0, 2)),
        "baseline": ([baseline], json_or_null, lambda f: ["--check", "--baseline", f], (0, 2)),
        "report.json": ([report], json_or_null, lambda f: ["report", f, "-o", out()], (0, 1, 2, 4)),
        "results.jsonl": ([jsonl], json_or_null, lambda f: ["report", f, "-o", out()], (0, 1, 2, 4)),
        "hwloc XML": (hwloc, process_fuzz.mutate_xml, lambda f: ["--topology-xml", f], (0, 2)),
        "NCCL XML": ([read("tests/data/topologies/nccl-azure-ndv4-a100.xml")], process_fuzz.mutate_xml,
                     lambda f: ["--topology-xml", f], (0, 2)),
        "fabric": ([fabric], mutate_fabric, lambda f: ["--check", "--fabric", f], (0, 2)),
    }


class Round:
    def __init__(self, binary, hang_s):
        self.binary, self.hang_s = binary, hang_s
        self.rows = collections.OrderedDict()
        self.problems = []

    def row(self, kind):
        return self.rows.setdefault(kind, {"runs": 0, "exits": collections.Counter(), "crashes": 0, "hangs": 0, "other": 0})

    def run(self, kind, args, allowed, label, out_dir=None, env=None):
        start = time.monotonic()
        try:
            p = subprocess.run([self.binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, timeout=self.hang_s * 3, env=env)
            code, err = p.returncode, p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            code, err = None, ""
        took = time.monotonic() - start
        r = self.row(kind)
        r["runs"] += 1
        r["exits"]["timeout" if code is None else ("signal" if code < 0 else code)] += 1
        why = None
        if code is None or took > self.hang_s:
            r["hangs"] += 1
            why = f"took {took:.1f} s"
        if code is not None and (code < 0 or any(m in err for m in SANITIZER_MARKS)):
            r["crashes"] += 1
            why = f"exit {code}: {err[-1500:]}"
        elif code is not None and code not in allowed:
            why = f"exit {code}, want one of {allowed}: {err[-600:]}"
        elif code == 2:
            lines = [l for l in err.split("\n") if l]
            if not lines or (args[:1] != ["--check"] and len(lines) != 1) or max(map(len, lines)) > MAX_LINE:
                r["other"] += 1
                why = f"exit 2 with {len(lines)} line(s) on stderr, longest {max(map(len, lines), default=0)}: {err[:400]!r}"
        if out_dir and code in (0, 1, 4) and os.path.isfile(os.path.join(out_dir, "report.md")):
            m = NON_FINITE.search(open(os.path.join(out_dir, "report.md"), errors="replace").read())
            if m:
                r["other"] += 1
                why = f"report.md prints {m.group(0).strip()!r}"
        if why:
            self.problems.append(f"{kind} {label}: {why}")
        return why

    def table(self):
        out = ["| inputs | runs | exit codes | crashes / sanitizer reports | over the hang bound | other |",
               "|---|---:|---|---:|---:|---:|"]
        total = collections.Counter()
        for kind, r in self.rows.items():
            codes = ", ".join(f"{k}: {v}" for k, v in sorted(r["exits"].items(), key=lambda kv: str(kv[0])))
            out.append(f"| {kind} | {r['runs']} | {codes} | {r['crashes']} | {r['hangs']} | {r['other']} |")
            for k in ("runs", "crashes", "hangs", "other"):
                total[k] += r[k]
        out.append(f"| all | {total['runs']} | | {total['crashes']} | {total['hangs']} | {total['other']} |")
        return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("source_dir")
    ap.add_argument("--cases", type=int, default=250, help="mutated inputs per kind")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--hang-s", type=float, default=20.0)
    ap.add_argument("--singleton-runs", type=int, default=6, help="one-rank runs (mpi and tcp on one rank)")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    work = tempfile.mkdtemp(prefix="gpunet_fuzz_round_")
    rnd = Round(binary, a.hang_s)
    counter = iter(range(10**9))
    outs = lambda: os.path.join(work, f"out-{next(counter)}")
    kinds = file_kinds(a.source_dir, outs)
    tasks = []
    for index, (kind, (seeds, mutate, args_of, allowed)) in enumerate(kinds.items()):
        rng = random.Random(a.seed * 1000 + index)
        for i in range(a.cases):
            path = os.path.join(work, f"{kind.replace(' ', '_')}-{i}")
            with open(path, "wb") as fh:
                fh.write(mutate(rng, rng.choice(seeds)))
            tasks.append((kind, args_of(path), allowed, f"case {i} ({path})", path))
    names = cli_fuzz.option_names(binary)
    rng = random.Random(a.seed)
    for i in range(a.cases):
        args = cli_fuzz.mutate(rng, rng.choice(cli_fuzz.SEEDS), names)
        if rng.random() < 0.1:  # an empty path for an option that names a file
            args += [rng.choice(["--spec", "--baseline", "--fabric", "--topology-xml", "--save-baseline", "-o"]), ""]
        tasks.append(("command line", ["--check"] + args, (0, 2), f"case {i} {json.dumps(args)[:300]}", None))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_btl="self,vader,tcp",
               OMPI_MCA_btl_tcp_if_include="lo", OMPI_MCA_oob_tcp_if_include="lo")
    singleton_seeds = [["--suites", "mpi", "-b", "1K", "-e", "64K"], ["--suites", "mpi", "-b", "8", "-e", "8", "-n", "2", "-w", "1"],
                       ["--suites", "tcp", "--tcp-time", "0.2"], ["--suites", "mpi", "--collectives", "broadcast,alltoall", "-e", "4K"]]
    for i in range(a.singleton_runs):
        tasks.append(("one-rank run", singleton_seeds[i % len(singleton_seeds)] + ["-o", outs(), "--timeout", "20"], (0, 1, 2, 4),
                      f"singleton {i}", None))

    def one(task):
        kind, args, allowed, label, path = task
        out_dir = args[args.index("-o") + 1] if kind.startswith(("report", "results")) else None
        why = rnd.run(kind, args, allowed, label, out_dir, env if kind == "one-rank run" else None)
        if out_dir:
            shutil.rmtree(out_dir, ignore_errors=True)
        if path and not why:
            os.remove(path)

    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        list(pool.map(one, tasks))
    print(f"fuzz round: seed {a.seed}, {a.cases} mutated inputs per kind, binary {a.binary}, {time.monotonic() - start:.0f} s\n")
    print(rnd.table())
    for p in rnd.problems[:40]:
        print("PROBLEM " + p)
    bad = any(r["crashes"] or r["hangs"] for r in rnd.rows.values()) or any(
        isinstance(k, int) and k not in (0, 1, 2, 4) or k in ("signal", "timeout") for r in rnd.rows.values() for k in r["exits"])
    if rnd.problems:
        print(f"{len(rnd.problems)} problem(s); the inputs are kept under {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
