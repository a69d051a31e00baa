#!/usr/bin/env python3
"""Process-level fuzz sample of every input file kind through the real binary.

Each case must end within a time bound with exit 0 or 2 (`report` also 1 or 4: the stored run's verdict
FAIL or INCOMPLETE, the exit code the run gave), no signal, and exactly one line on stderr when it
exits 2. Kinds: hwloc and NCCL topology XML (--topology-xml F), report.json and
results.jsonl (report F -o DIR), spec and baseline (--check --spec F / --check --baseline F, run
only when --help lists --check). Besides seeded mutations (GPUNET_FUZZ_SEED, GPUNET_FUZZ_PROCESS_CASES
per kind), every file under tests/data/fuzz/<kind> and the file kinds that are not regular files
(a FIFO, a directory, /dev/zero, a socket, a symbolic link loop) run every time.

Usage: process_fuzz.py BINARY SOURCE_DIR
"""
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

BIN, SRC = (sys.argv[1], sys.argv[2]) if __name__ == "__main__" else ("", "")  # fuzz_round.py imports the mutators
CASES = int(os.environ.get("GPUNET_FUZZ_PROCESS_CASES", "12"))
SEED = int(os.environ.get("GPUNET_FUZZ_SEED", "20261201"))
LIMIT_S = 60  # per case; a hang shows as this timeout
failures = []
counts = {}


def run_case(kind, args, label):
    allowed = (0, 1, 2, 4) if args[:1] == ["report"] else (0, 2)
    counts[kind] = counts.get(kind, 0) + 1
    start = time.monotonic()
    try:
        p = subprocess.run([BIN] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        failures.append(f"{kind} {label}: still running after {LIMIT_S} s")
        return
    took = time.monotonic() - start
    err = p.stderr.decode("utf-8", "replace")
    lines = [l for l in err.split("\n") if l]
    if p.returncode < 0:
        failures.append(f"{kind} {label}: killed by signal {-p.returncode}: {err[-2000:]}")
    elif p.returncode not in allowed:
        failures.append(f"{kind} {label}: exit {p.returncode}: {err[-2000:]}")
    elif p.returncode == 2 and len(lines) != 1:
        failures.append(f"{kind} {label}: exit 2 with {len(lines)} lines on stderr: {err[-2000:]}")
    elif "Sanitizer" in err or "runtime error:" in err:
        failures.append(f"{kind} {label}: sanitizer report: {err[-2000:]}")
    if took > LIMIT_S / 2:
        print(f"note: {kind} {label} took {took:.1f} s")


def mutate_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        if not data:
            break
        at = rng.randrange(len(data))
        op = rng.randrange(5)
        if op == 0:
            data[at] ^= 1 << rng.randrange(8)
        elif op == 1:
            del data[at:]
        elif op == 2:
            data[at:at] = data[at:at + rng.randint(1, 2048)]
        elif op == 3:
            del data[at:at + rng.randint(1, 64)]
        else:
            data[at:at] = rng.choice([b"1e999", b"NaN", b"<!ENTITY x 'y'>", b"[" * 3000, b"&x;", b"\x00", b'"'])
    return bytes(data)


def mutate_xml(rng, text):
    op = rng.randrange(4)
    if op == 0:  # an internal DTD with an entity
        start = text.find(b"<topology")
        start = start if start >= 0 else max(text.find(b"<system"), 0)
        head = text[:start].replace(b'<!DOCTYPE topology SYSTEM "hwloc2.dtd">', b"").replace(b'<!DOCTYPE topology SYSTEM "hwloc.dtd">', b"")
        return head + b'<!DOCTYPE topology [<!ENTITY x "y">]>\n' + text[start:]
    if op == 1:  # rename one attribute
        names = [b"complete_cpuset=", b"cpuset=", b"nodeset=", b"complete_nodeset=", b"busid=", b"type=", b"class="]
        name = rng.choice(names)
        hits = [i for i in range(len(text)) if text.startswith(name, i)][:400]
        if hits:
            at = rng.choice(hits)
            return text[:at] + name[:-1] + b"X=" + text[at + len(name):]
    if op == 2:  # deep nesting
        at = text.find(b"<object", 200) if b"<object" in text else text.find(b"<pci")
        if at > 0:
            n = rng.choice([100, 2000, 10000])
            tag = b"<object type=\"Group\" cpuset=\"0x1\" complete_cpuset=\"0x1\">" if b"<object" in text else b"<pci busid=\"0000:01:00.0\">"
            close = b"</object>" if b"<object" in text else b"</pci>"
            return text[:at] + tag * n + close * n + text[at:]
    return mutate_bytes(rng, text)


def mutate_json(rng, text):
    if rng.randrange(3) == 0:
        return mutate_bytes(rng, text)
    try:
        doc = json.loads(text)
    except ValueError:
        return mutate_bytes(rng, text)
    values = []

    def walk(v, parent, key):
        values.append((parent, key))
        if isinstance(v, dict):
            for k in list(v):
                walk(v[k], v, k)
        elif isinstance(v, list):
            for i, e in enumerate(v):
                walk(e, v, i)

    walk(doc, None, None)
    parent, key = rng.choice(values[1:] or values)
    hostile = rng.choice(["1e999", "-1e999", "NaN", "99999999999999999999999", "[" * 100 + "]" * 100,
                          '{"a":' * 200 + "1" + "}" * 200, "[]", "{}", '"x"', "true", "null", "-1"])
    if parent is None:
        return hostile.encode()
    parent[key] = "@@fuzz@@"
    return json.dumps(doc).replace('"@@fuzz@@"', hostile, 1).encode()


def jsonl_of(report):
    doc = json.loads(report)
    lines = [json.dumps({"provenance": doc.get("provenance", {})})] + [json.dumps(r) for r in doc.get("results", [])]
    return ("\n".join(lines) + "\n").encode()


def main():
    work = tempfile.mkdtemp(prefix="gpunet_process_fuzz_")
    out = os.path.join(work, "out")
    help_text = subprocess.run([BIN, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()
    # The input check (parse options, spec, baseline and topology file, then exit), not -c/--check INT
    # (verify results), which is older.
    has_check = any("--check" in line and "INT" not in line for line in help_text.splitlines())
    read = lambda p: open(os.path.join(SRC, p), "rb").read()
    topo = os.path.join(SRC, "tests/data/topologies")
    report_seed = read("tests/data/report/fixture.json")
    kinds = {
        "hwloc": ([open(os.path.join(topo, f), "rb").read() for f in sorted(os.listdir(topo))
                   if f.endswith(".xml") and not f.startswith("nccl")], mutate_xml, lambda f: ["--topology-xml", f]),
        "nccl": ([read("tests/data/topologies/nccl-azure-ndv4-a100.xml")], mutate_xml, lambda f: ["--topology-xml", f]),
        "report": ([report_seed], mutate_json, lambda f: ["report", f, "-o", out]),
        "jsonl": ([jsonl_of(report_seed)], mutate_json, lambda f: ["report", f, "-o", out]),
    }
    if has_check:
        kinds["spec"] = ([read("ci/spec-example.json"), read("tests/data/spec/fabric-spec.json")], mutate_json, lambda f: ["--check", "--spec", f])
        kinds["baseline"] = ([b'{"gpunet_baseline": 1, "figures": {}}'], mutate_json, lambda f: ["--check", "--baseline", f])
    else:
        print("note: this gpunet-bench has no input --check; mutated spec and baseline cases run in-process only "
              "(fuzz_tests); the files that are not regular files go through a plain run, refused before it measures")

    # What is not a regular file, for each option that names an input file.
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    loop = os.path.join(work, "loop")
    os.symlink(loop + "2", loop)
    os.symlink(loop, loop + "2")
    sock_path = os.path.join(work, "sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(sock_path)
    specials = {name: args_of for name, (_, _, args_of) in kinds.items()}
    if not has_check:
        specials["spec"] = lambda f: ["--spec", f, "--suites", "topo", "-o", out]
        specials["baseline"] = lambda f: ["--baseline", f, "--suites", "topo", "-o", out]
    for name, args_of in specials.items():
        for special in (fifo, work, "/dev/zero", loop, sock_path):
            run_case(name, args_of(special), f"special file {special}")

    for index, (name, (seeds, mutate, args_of)) in enumerate(kinds.items()):
        fixed = os.path.join(SRC, "tests/data/fuzz", name)
        for f in sorted(os.listdir(fixed)) if os.path.isdir(fixed) else []:
            run_case(name, args_of(os.path.join(fixed, f)), f"regression file {f}")
        rng = random.Random(SEED * 100 + index)
        for i in range(CASES):
            path = os.path.join(work, f"{name}-{i}")
            with open(path, "wb") as fh:
                fh.write(mutate(rng, rng.choice(seeds)))
            before = len(failures)
            run_case(name, args_of(path), f"case {i} (seed {SEED}, kept at {path})")
            if len(failures) == before:
                os.remove(path)
    sock.close()
    print("cases per kind: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    if failures:
        print("\n".join(failures))
        print(f"FAIL: {len(failures)} case(s); the failing inputs are kept under {work}")
        return 1
    subprocess.run(["rm", "-rf", work])
    return 0


if __name__ == "__main__":
    sys.exit(main())
