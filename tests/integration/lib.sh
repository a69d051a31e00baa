# Shared helpers for the integration tests (sourced). They run the real mpirun.
set -euo pipefail
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Oversubscribed runs on a small machine: no binding, and yield when idle.
MPIRUN=(mpirun --oversubscribe --bind-to none --mca mpi_yield_when_idle 1)

fail() { echo "FAIL: $*" >&2; exit 1; }

# check_report DIR NRANKS: report.json is valid and complete, every record verified and passed.
check_report() {
  python3 - "$1" "$2" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
rep = json.load(open(f"{out}/report.json"))
assert rep["schema_version"] >= 1, "schema_version"
prov = rep["provenance"]
for k in ("argv", "hosts", "ranks_per_node", "mpi_version", "hwloc_version", "git_commit", "start_time", "end_time", "reduction"):
    assert k in prov and prov[k] not in ("", None), f"provenance.{k} missing"
assert len(prov["hosts"]) == n, f"hosts {prov['hosts']}"
assert sum(prov["ranks_per_node"]) == n
mpi = [r for r in rep["results"] if r["suite"] == "mpi"]
assert mpi, "no mpi results"
names = {r["name"] for r in mpi}
assert names == {"allreduce", "allgather", "reduce_scatter", "broadcast", "alltoall"}, names
for r in mpi:
    for k in ("suite", "name", "bytes", "status", "time_us", "algbw_GBps", "busbw_GBps", "check"):
        assert k in r, f"record lacks {k}"
    for k in ("min", "p50", "mean", "p99", "max", "stddev", "cv"):
        assert k in r["time_us"], f"time_us lacks {k}"
    if n == 1:  # a collective over one rank has no figure: skipped, saying why
        assert r["status"] == "skipped" and r["reason"].startswith("one rank:"), r
        continue
    if r["status"] == "skipped":
        continue
    assert r["status"] == "passed", r
    assert r["check"] == "ok" and r["wrong"] == 0, r
    assert r["ranks"] == n
    assert r["time_us"]["min"] <= r["time_us"]["p50"] <= r["time_us"]["p99"] <= r["time_us"]["max"], r["time_us"]
    assert r["algbw_GBps"] > 0, r
    if n > 1:
        assert r["busbw_GBps"] > 0, r
lines = [json.loads(l) for l in open(f"{out}/results.jsonl")]
assert len(lines) == len(rep["results"]), "results.jsonl and report.json disagree"
print(f"ok: {len(mpi)} mpi records from {n} rank(s)")
PY
}
