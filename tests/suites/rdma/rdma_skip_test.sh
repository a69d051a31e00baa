#!/usr/bin/env bash
# The skip path under the real mpirun on a machine without RDMA devices: the rdma suite records
# `skipped` with the reason, the next suite still runs, and the job exits 0.
# Usage: rdma_skip_test.sh BINARY NP HAVE_IBVERBS(0|1). Exits 77 (skipped) where RDMA devices exist.
source "$(dirname "$0")/../../integration/lib.sh"
bin=$1 np=$2 have_verbs=$3
if [[ $have_verbs == 1 && -n $(ls -A /sys/class/infiniband 2>/dev/null) ]]; then
  echo "this machine has RDMA devices; the skip path cannot be shown here"
  exit 77
fi
want="no RDMA devices"
[[ $have_verbs == 1 ]] || want="built without libibverbs"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# rdma first, then mpi: the skip must not stop the run. A device and GID index that do not exist
# change nothing when there is no device at all.
"${MPIRUN[@]}" -np "$np" "$bin" --suites rdma,mpi --collectives allreduce -b 1K -e 4K -n 2 --budget 0.01 \
  --rdma-dev mlx5_0 --gid-index 3 --timeout 30 -o "$out/r" >"$out/log" 2>&1 || { cat "$out/log"; fail "exit code $? (want 0)"; }
grep -qx "# rdma rdma: skipped ($want)" "$out/log" || { cat "$out/log"; fail "console note missing"; }
python3 - "$out/r" "$np" "$want" <<'PY'
import json, sys
out, n, want = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = [json.loads(l) for l in open(f"{out}/results.jsonl")]
rdma = [r for r in lines if r["suite"] == "rdma"]
assert len(rdma) == 1, rdma
r = rdma[0]
assert r["status"] == "skipped" and r["reason"] == want, r
assert r["name"] == "rdma" and r["ranks"] == n and r["rank"] == 0, r
mpi = [r for r in lines if r["suite"] == "mpi"]
assert mpi and all(m["status"] == ("passed" if n > 1 else "skipped") for m in mpi), mpi  # one rank: no collective
assert lines.index(r) < lines.index(mpi[0]), "rdma ran first, then mpi"
rep = json.load(open(f"{out}/report.json"))
assert len(rep["results"]) == len(lines)
print(f"ok: rdma skipped ({want}) on {n} ranks, {len(mpi)} mpi records after it")
PY

# Several ports (rails) skip the same way when there is no device: a list and all, on 2 ranks only.
if [[ $np == 2 ]]; then
  for dev in mlx5_0:1,mlx5_1:1 all; do
    "${MPIRUN[@]}" -np "$np" "$bin" --suites rdma --rdma-dev "$dev" --timeout 30 -o "$out/rails" >"$out/log" 2>&1 \
      || { cat "$out/log"; fail "--rdma-dev $dev: exit code $? (want 0)"; }
    grep -qx "# rdma rdma: skipped ($want)" "$out/log" || { cat "$out/log"; fail "--rdma-dev $dev: console note missing"; }
  done
  echo "ok: --rdma-dev with a list and with all skip ($want)"
fi
