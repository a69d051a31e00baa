#!/usr/bin/env python3
"""Command-line fuzz of gpunet-bench, run through `gpunet-bench --check ...` so that no case measures.

Seeded and reproducible: the same seed gives the same cases. Bounded: at most CASES cases and SECONDS
seconds (whichever comes first), each case at most PER_CASE seconds. Every case must end with exit
code 0 or 2; exit 2 with one line on stderr per problem, each at most MAX_LINE characters (so exactly one for a bad option; at most
one more per file the command line names), exit 0 with none; no signal and no sanitizer report. The fixed regression cases in REGRESSION_DIR (one JSON file each: {"args": [...], "exit": CODE,
"why": what it once did}) run first, every time, and must also end with their exit code.

Usage: cli_fuzz.py BINARY REGRESSION_DIR
Environment: GPUNET_FUZZ_SEED (default 15), GPUNET_FUZZ_CASES (default 250), GPUNET_FUZZ_SECONDS
(default 60), GPUNET_FUZZ_SAVE=1 writes each failing case into REGRESSION_DIR.
"""
import glob
import json
import os
import random
import re
import subprocess
import sys
import time

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PER_CASE = 20.0  # seconds; generous for a loaded 2-core machine under ASan
MAX_LINE = 1500  # an error quotes a value up to a short length, never a 5,000-character value whole
SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "runtime error:")

HOSTILE_VALUES = [
    "nan", "-nan", "NaN", "inf", "-inf", "Infinity", "1e400", "-1e400", "1e-400", "1e308", "-1", "0", "-0",
    "99999999G", "99999999999T", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "99999999999999999999", "0x7fffffff", "1.5", "2x", "1K", "64M", "1e3", "", " ", "  1", "1 ", "--", "-",
    "%s%n%x", "\u00e9\u00e8", "\u202e", "a" * 5000, "1" * 400, ",", ",,,", "mpi,,tcp", "report",
    "/", "/nonexistent/x.json", ".", "..", "/dev/null", "/proc/self/mem",
]

SEEDS = [
    [],
    ["--suites", "mpi", "-b", "1K", "-e", "4K", "-f", "2"],
    ["--suites", "tcp", "--tcp-time", "0.5", "--tcp-lat-time", "0.1", "--tcp-timeout", "1"],
    ["--suites", "topo,mpi,node", "--budget", "0.01", "--timeout", "30", "-n", "2", "-w", "1"],
    ["--suites", "nccl,pcie", "--nccl-collectives", "allreduce,alltoall", "--pcie-size", "1M", "--scaling", "-G", "2"],
    ["--suites", "rdma", "--rdma-mode", "matrix", "--rdma-size", "64K", "--rdma-tx-depth", "16"],
    ["--spec", os.path.join(REPO, "ci", "spec-example.json"), "-o", "/tmp/gpunet-fuzz-out"],
    ["--topology-xml", os.path.join(REPO, "tests", "data", "topologies", "synthetic-snc-2x2.xml")],
    ["--duration", "5", "--tcp-interval", "0.5", "--link-rate", "10G", "--tcp-dip", "0.5"],
    ["report", os.path.join(REPO, "tests", "accept", "data", "two_nodes_report.json")],
]


def option_names(binary):
    """Every --long option --help lists."""
    out = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=PER_CASE).stdout
    names = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9_-]*)", out)) - {"--help", "--version", "--check"})
    if len(names) < 20:
        sys.exit(f"FAIL: --help lists only {len(names)} options")
    return names


def misspell(rng, name):
    kind = rng.randrange(5)
    if kind == 0 and len(name) > 3:
        i = rng.randrange(2, len(name))
        return name[:i] + name[i + 1:]
    if kind == 1:
        return name[1:]
    if kind == 2:
        return name.upper()
    if kind == 3:
        return name + rng.choice(["x", "-", "="])
    return "---" + name[2:]


def mutate(rng, args, names):
    args = list(args)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(8)
        if kind in (0, 1, 2):  # a known option with a hostile value
            opt, val = rng.choice(names), rng.choice(HOSTILE_VALUES)
            args += [opt + "=" + val] if rng.random() < 0.2 else [opt, val]
        elif kind == 3 and args:  # a value replaced
            args[rng.randrange(len(args))] = rng.choice(HOSTILE_VALUES)
        elif kind == 4 and args:  # an option name misspelt
            idxs = [i for i, a in enumerate(args) if a.startswith("--")]
            if idxs:
                i = rng.choice(idxs)
                args[i] = misspell(rng, args[i])
        elif kind == 5 and args:  # a token dropped
            del args[rng.randrange(len(args))]
        elif kind == 6 and args:  # an option repeated
            i = rng.randrange(len(args))
            args += args[i:i + 2]
        else:  # a garbage suffix on a value
            if args:
                i = rng.randrange(len(args))
                args[i] = args[i] + rng.choice(["x", "e", "e999", "G", "GG", "\t", "%", "0000000000"])
    return args


def run_case(binary, args):
    """(None when the case behaves, else what went wrong; the exit code)."""
    cmd = [binary, "--check"] + args
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=PER_CASE, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"did not end within {PER_CASE:.0f} s", None
    return judge(p, most_lines(args)), p.returncode


FILE_OPTIONS = ("--spec", "--baseline", "--topology-xml", "--save-baseline", "report", "-o", "--output")


def most_lines(args):
    """The most lines a refusal may have: --check says one line per problem, and beside the options
    each file or directory the command line names is one more thing that can be wrong."""
    return 1 + sum(1 for a in args if a.split("=")[0] in FILE_OPTIONS)


def judge(p, max_lines):
    """None when a finished case behaves, else what went wrong."""
    err = p.stderr.decode(errors="replace")
    if p.returncode < 0:
        return f"killed by signal {-p.returncode}: {err[-400:]}"
    for mark in SANITIZER_MARKS:
        if mark in err:
            return f"sanitizer report ({mark}): {err[-800:]}"
    if p.returncode not in (0, 2):
        return f"exit code {p.returncode}, want 0 or 2: {err[-400:]}"
    lines = err.splitlines()
    if p.returncode == 2 and not (1 <= len(lines) <= max_lines and err.endswith("\n")):
        return f"exit 2 with {len(lines)} lines on stderr, want 1 to {max_lines}: {err[-600:]!r}"
    if p.returncode == 2 and max(len(line) for line in lines) > MAX_LINE:
        return f"exit 2 with an error line of {max(len(line) for line in lines)} characters, want at most {MAX_LINE}: {err[:300]!r}"
    if p.returncode == 2 and not all(line.startswith("gpunet-bench") for line in lines):
        return f"exit 2 with a line that is not gpunet-bench's own: {err[-600:]!r}"
    if p.returncode == 0 and err:
        return f"exit 0 but stderr says: {err[-400:]!r}"
    return None


def main():
    binary, regression_dir = sys.argv[1], sys.argv[2]
    seed = int(os.environ.get("GPUNET_FUZZ_SEED", "15"))
    cases = min(int(os.environ.get("GPUNET_FUZZ_CASES", "250")), 300)
    seconds = min(float(os.environ.get("GPUNET_FUZZ_SECONDS", "60")), 60.0)
    save = os.environ.get("GPUNET_FUZZ_SAVE") == "1"
    failures = []

    regressions = sorted(glob.glob(os.path.join(regression_dir, "*.json")))
    for path in regressions:
        case = json.load(open(path))
        why, code = run_case(binary, case["args"])
        if not why and "exit" in case and code != case["exit"]:
            why = f"exit code {code}, want {case['exit']}"
        if why:
            failures.append((os.path.basename(path), case["args"], why))

    names = option_names(binary)
    rng = random.Random(seed)
    start = time.monotonic()
    ran = 0
    exits = {0: 0, 2: 0}
    while ran < cases and time.monotonic() - start < seconds:
        args = mutate(rng, rng.choice(SEEDS), names)
        ran += 1
        why, code = run_case(binary, args)
        exits[code] = exits.get(code, 0) + 1
        if why:
            failures.append((f"seed {seed} case {ran}", args, why))
            if save:
                name = os.path.join(regression_dir, f"seed{seed}-case{ran}.json")
                with open(name, "w") as f:
                    json.dump({"args": args, "why": why.splitlines()[0][:200]}, f, indent=1)
                    f.write("\n")
    took = time.monotonic() - start
    print(f"cli fuzz: seed {seed}, {len(regressions)} regression cases, {ran} generated cases in {took:.1f} s; "
          f"exit codes {dict(sorted((str(k), v) for k, v in exits.items()))}")
    for label, args, why in failures:
        print(f"FAIL {label}: {json.dumps(args)}\n  {why}")
    if failures:
        sys.exit(1)
    if ran < 50:
        sys.exit(f"FAIL: only {ran} cases ran in {seconds:.0f} s; the machine is too slow to say anything")
    if exits.get(0, 0) == 0 or exits.get(2, 0) == 0:
        sys.exit(f"FAIL: exit codes {exits}: the cases must include both valid and invalid command lines")
    print("ok: every case ended with 0 or 2, one line on stderr for 2, no signal, no sanitizer report")


if __name__ == "__main__":
    main()
