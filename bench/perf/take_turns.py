#!/usr/bin/env python3
"""Benchmark driver (not a test): the mpi suite's allreduce and bare loops take turns on the same cores.

On this VM a process's calls run at one of several speeds (8 B: 0.2-0.3 or 0.5-0.7 us a call) for
tenths of a second to tens of seconds, the same for every program. Two programs run seconds apart
often meet different speeds, and a ratio between them says more about the machine than about the
programs. Here every program runs at once, pinned the same way (mpirun --bind-to core --map-by core,
so every job's rank 0 shares core 0 and rank 1 core 1), and only one runs at a time: the others are
stopped (SIGSTOP) and the turn passes (SIGCONT) every --turn seconds. The turns go in rounds, every
job once a round, in an order shuffled afresh each round (seeded), so that no job always follows the
same one. Neighbouring turns of two programs lie a fraction of a second apart and meet the same
speeds.

Each job times batches back to back; a batch that spans a stop lasts as many turns longer than the
others as the job waited, which marks where its turns begin and end (see turn_medians). A turn's
figure is the median of its batches' means (time per call), leaving out the batch that spans the
stop; a turn with fewer than three batches is left out. A job's turn is compared with the nearest turn of the bare loop before
and after it (their mean). Printed per job: the median of those ratios over all turns and the middle
half (25th..75th percentile), and per size the A/A ratio of a second bare process against the first.

Jobs (--jobs; the first, gpunet-bench, takes the first turn):
  gpunet-bench   the mpi suite (--suites mpi --collectives allreduce -c 0 --budget 0): its record's
                 batch means (extra.samples_us) in the order they were timed; its turns start when it
                 prints the allreduce step's progress line, the measurement following within the turn
  bare           bench/perf/bare_allreduce with MPI_Init (what a user would otherwise run: one barrier,
                 then batch after batch with nothing but the clock between them, as the suite times)
  bare-again     a second bare process, for the A/A ratio: what the machine alone does to a ratio
  bare-same      the bare loop set up as the harness sets MPI up: MPI_THREAD_SINGLE, a second thread
                 asleep in poll() that never calls MPI, the calls on a duplicate of MPI_COMM_WORLD
  bare-odd       the bare loop after one MPI_Bcast from rank 0: a message sent one way only, which
                 leaves Open MPI's shared-memory rings of the two directions at different places
                 (bare_allreduce.cpp, one-bcast): what the messages before a loop can do to it
  gpunet-bench-alt  the same suite from another build (--alt-build): did a change slow the harness?
"""
import argparse
import atexit
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

MPIRUN = ["mpirun", "-np", "2", "--bind-to", "core", "--map-by", "core"]
SUITE_READY = "# progress [mpi] allreduce"


class Job:
    def __init__(self, name, argv, ready, env):
        self.name, self.started = name, False
        self.bare = ready == "ready"  # bare_allreduce: a byte on standard input starts its batches, the next one ends them
        self.stopped_at = self.waited_s = None
        self.proc = subprocess.Popen(MPIRUN + argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env)
        self.lines = []
        for line in self.proc.stdout:
            self.lines.append(line)
            if line.startswith(ready):
                break
        else:
            sys.exit(f"take_turns: {name} ended before it was ready:\n{''.join(self.lines[-20:])}")
        self.reader = threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True)
        self.reader.start()
        program = os.path.basename(argv[0])
        kids = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout.split()
        self.ranks = [int(p) for p in kids if program in open(f"/proc/{p}/cmdline").read()]
        if len(self.ranks) != 2:
            sys.exit(f"take_turns: {name}: expected 2 ranks under mpirun, found {self.ranks}")

    def signal(self, sig):
        for pid in self.ranks:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass

    def wait_for_turn(self):  # stopped on its ready line until its first turn
        self.signal(signal.SIGSTOP)
        self.stopped_at = time.monotonic()

    def take_turn(self):
        self.signal(signal.SIGCONT)
        if self.started:
            return
        self.started = True
        self.waited_s = time.monotonic() - self.stopped_at
        if self.bare:
            self.proc.stdin.write("g")
            self.proc.stdin.flush()

    def finish(self):  # ends a bare loop's batches; one that never started ends at the end of its input
        if not self.bare:
            return
        try:
            if self.started:
                self.proc.stdin.write("x")
            self.proc.stdin.close()
        except BrokenPipeError:
            pass


def bare_samples(job):
    for line in job.lines:
        if line.startswith("bare_allreduce ") and "samples_us=" in line:
            fields = dict(w.split("=", 1) for w in line.split()[1:])
            return [float(x) for x in fields["samples_us"].split(",")], int(fields["iters_per_batch"])
    sys.exit(f"take_turns: {job.name} printed no samples:\n{''.join(job.lines[-20:])}")


def suite_samples(results):
    for line in open(results):
        r = json.loads(line)
        if r["suite"] == "mpi" and r["status"] == "passed":
            return r["extra"]["samples_us"], r["extra"]["timing"]["iters_per_batch"]
    sys.exit(f"take_turns: no passed mpi record in {results}")


def schedule(order, seed):
    """Job names turn by turn: the first job, then rounds of every job in shuffled order, never one job twice running."""
    rng = random.Random(seed)
    yield order[0]
    last = order[0]
    while True:
        rnd = list(order)
        while True:
            rng.shuffle(rnd)
            if rnd[0] != last:
                break
        yield from rnd
        last = rnd[-1]


def turn_medians(samples_us, iters_per_batch, slots, turn_s, waited_s=None):
    """{slot: median batch mean} of a job's turns (slots: its turns' places in the schedule).

    A batch over half a turn spans a pause. The pause after the job's k-th turn lasts as many turns
    as ran between its k-th and (k+1)-th; a pause that does not (the machine's own, rare) splits a
    turn, whose first part stands for it. A pause of waited_s (a suite stopped on its progress line
    until its first turn) ends batches timed before the turns, which are left out. A turn of fewer
    than three batches is left out.
    """
    out, now, k = {}, [], 0

    def keep():  # the batches so far stand for the k-th turn, unless it has a figure already
        if k < len(slots) and len(now) >= 3 and slots[k] not in out:
            out[slots[k]] = statistics.median(now)

    for mean_us in samples_us:
        pause_s = mean_us * iters_per_batch * 1e-6
        if pause_s <= turn_s / 2:
            now.append(mean_us)
            continue
        if k == 0 and waited_s is not None and abs(pause_s - waited_s) < turn_s / 2:
            waited_s, now = None, []
            continue
        keep()
        expected_s = (slots[k + 1] - slots[k] - 1) * turn_s if k + 1 < len(slots) else None
        if expected_s is None or abs(pause_s - expected_s) < turn_s / 2:
            k += 1
        now = []
    keep()
    return out


def ratios_to(timeline, job, ref):
    """Each turn of job over the mean of ref's nearest turns before and after it."""
    out = []
    for slot, (name, value) in timeline.items():
        if name != job:
            continue
        before = next((timeline[s][1] for s in range(slot - 1, -1, -1) if s in timeline and timeline[s][0] == ref), None)
        after = next((timeline[s][1] for s in range(slot + 1, max(timeline) + 1) if s in timeline and timeline[s][0] == ref), None)
        if before and after:
            out.append(value / ((before + after) / 2))
    return out


def summary(values):
    if len(values) < 2:
        return f"{len(values)} turns: too few"
    q = statistics.quantiles(values, n=4, method="inclusive")
    return f"median {statistics.median(values):.4f}  middle half {q[0]:.4f}..{q[2]:.4f}  ({len(values)} turns)"


def suite_argv(build, a, out):
    return [f"{build}/gpunet-bench", "--suites", "mpi", "--collectives", "allreduce", "-b", str(a.bytes), "-e", str(a.bytes),
            "-n", str(a.iters), "--max-iters", str(a.iters), "-w", "2", "-c", "0", "--budget", "0", "--timeout", "3600",
            "--progress", "plain", "-o", out]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--alt-build", help="build directory of job gpunet-bench-alt")
    ap.add_argument("--bytes", type=int, required=True)
    ap.add_argument("--batch", type=int, required=True, help="iterations per batch of the bare loops")
    ap.add_argument("--iters", type=int, required=True, help="timed iterations of gpunet-bench (-n, --max-iters)")
    ap.add_argument("--turn", type=float, default=0.25, help="seconds per turn")
    ap.add_argument("--jobs", default="gpunet-bench,bare,bare-again")
    ap.add_argument("--seed", type=int, default=1, help="seed of the shuffled order of each round")
    ap.add_argument("--timeline", action="store_true", help="print every turn's median time")
    a = ap.parse_args()
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    bare = [f"{a.build}/bare_allreduce", str(a.bytes), str(a.batch), "2"]
    out = tempfile.mkdtemp(prefix="take_turns.")
    atexit.register(shutil.rmtree, out, True)
    argv = {"bare": bare, "bare-again": bare, "bare-same": bare + ["single", "idle-thread", "dup"],
            "bare-odd": bare + ["one-bcast"],
            "gpunet-bench": suite_argv(a.build, a, f"{out}/gpunet-bench"),
            "gpunet-bench-alt": suite_argv(a.alt_build, a, f"{out}/gpunet-bench-alt")}
    order = a.jobs.split(",")
    if order[0] != "gpunet-bench" or "bare" not in order or any(n not in argv for n in order) or len(set(order)) < len(order):
        sys.exit("take_turns: --jobs starts with gpunet-bench and names bare, each job once; known jobs: " + ", ".join(argv))
    if "gpunet-bench-alt" in order and not a.alt_build:
        sys.exit("take_turns: job gpunet-bench-alt needs --alt-build")
    suites = [n for n in order if n.startswith("gpunet-bench")]
    jobs = {}
    try:
        for name in order[:0:-1]:  # all but the first wait, stopped, for their first turn; the first runs on
            jobs[name] = Job(name, argv[name], SUITE_READY if name in suites else "ready", env)
            jobs[name].wait_for_turn()
        jobs["gpunet-bench"] = Job("gpunet-bench", argv["gpunet-bench"], SUITE_READY, env)
        jobs["gpunet-bench"].started = True
        turns = schedule(order, a.seed)
        slots = [next(turns)]
        while True:
            time.sleep(a.turn)
            if any(jobs[n].proc.poll() is not None for n in suites):
                break  # the rest runs on alone, outside the turns
            jobs[slots[-1]].signal(signal.SIGSTOP)
            slots.append(next(turns))
            jobs[slots[-1]].take_turn()
    finally:
        for job in jobs.values():
            job.signal(signal.SIGCONT)
            job.finish()
        for job in jobs.values():
            try:
                job.proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                job.proc.kill()
            job.reader.join(timeout=5)
    for name in suites:
        if jobs[name].proc.returncode != 0:
            sys.exit(f"take_turns: {name} exited {jobs[name].proc.returncode}:\n{''.join(jobs[name].lines[-20:])}")
    timeline = {}
    for name in order:
        samples, per_batch = suite_samples(f"{out}/{name}/results.jsonl") if name in suites else bare_samples(jobs[name])
        mine = [slot for slot, n in enumerate(slots) if n == name]
        waited = None if jobs[name].bare else jobs[name].waited_s  # bare loops time nothing before their first turn
        timeline.update((slot, (name, m)) for slot, m in turn_medians(samples, per_batch, mine, a.turn, waited).items())
    print(f"{a.bytes} B, turns of {a.turn} s: " + ", ".join(f"{n} {slots.count(n)} turns" for n in order))
    if a.timeline:
        print(" ".join(f"{n}={v:.4f}" for _, (n, v) in sorted(timeline.items())))
    for name in order:
        if name != "bare":
            print(f"{a.bytes:>9} B {name + ' / bare':24s} {summary(ratios_to(timeline, name, 'bare'))}")
    med = {n: statistics.median(v for m, v in timeline.values() if m == n) for n in order}
    print(f"{a.bytes:>9} B median us: " + ", ".join(f"{n} {v:.4f}" for n, v in med.items()))


if __name__ == "__main__":
    main()
