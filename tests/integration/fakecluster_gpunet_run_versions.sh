#!/usr/bin/env bash
# launch/gpunet-run on a fake cluster, through launch/fakecluster-rsh (--rsh): a node whose gpunet-bench
# reports another build stops the run before it starts, with one line naming that node and both
# versions (exit 2); with the same program everywhere the run goes through and spans the 3 nodes.
# Usage: fakecluster_gpunet_run_versions.sh PATH/TO/gpunet-bench   (root; exit 77, skipped, without it)
set -euo pipefail
source "$(dirname "$0")/fakecluster_lib.sh"
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fc_start 3
state=${FAKECLUSTER_STATE_ROOT:-/run/fakecluster}/$PFX
printf '%s\n' "$PFX-node0" "$PFX-node1" "$PFX-node2" > "$OUT/hosts"
# The odd node: the same program, but --version says another build on node 2 (its UTS host name).
cat > "$OUT/bench" <<SH
#!/bin/sh
if [ "\$1" = --version ] && [ "\$(hostname)" = "$PFX-node2" ]; then echo "gpunet-bench 0.0.9 (0123456789ab)"; exit 0; fi
exec "$BIN" "\$@"
SH
chmod +x "$OUT/bench"
in_head() {  # COMMAND...: in the cluster's head namespace, as fakecluster mpirun runs mpirun
  ip netns exec "$PFX-head" nsenter --uts="$state/uts/$PFX-head" -- \
    env FAKECLUSTER_STATE="$state" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 TMPDIR="$state/tmp/$PFX-head" timeout --kill-after=5 60 "$@"
}

rc=0
in_head "$ROOT/launch/gpunet-run" -H "$OUT/hosts" -g 0 --rsh "$ROOT/launch/fakecluster-rsh" -b "$OUT/bench" \
  -- --suites mpi -o "$OUT/odd" > "$OUT/odd.txt" 2> "$OUT/odd.err" || rc=$?
[[ $rc == 2 ]] || { cat "$OUT/odd.txt" "$OUT/odd.err"; fail "mixed versions: exit $rc, expected 2"; }
want="gpunet-run: error: host '$PFX-node2' runs 'gpunet-bench 0.0.9 (0123456789ab)', 2 of 3 hosts run '$("$BIN" --version)'"
[[ $(wc -l < "$OUT/odd.err") == 1 && $(cat "$OUT/odd.err") == "$want"* ]] || fail "mixed versions said: $(cat "$OUT/odd.err")
  want: $want..."
[[ ! -e $OUT/odd ]] || fail "mixed versions: the run started ($OUT/odd exists)"

# The same build everywhere: the checks pass and mpirun starts the ranks through the same agent.
in_head "$ROOT/launch/gpunet-run" -H "$OUT/hosts" -g 0 --rsh "$ROOT/launch/fakecluster-rsh" -b "$BIN" \
  -M --mca -M oob_tcp_if_include -M 10.78.0.0/24 -M --mca -M btl_tcp_if_include -M 10.78.0.0/24 \
  -M --mca -M plm_rsh_no_tree_spawn -M 1 -M --mca -M mpi_yield_when_idle -M 1 \
  -- -q --suites mpi --collectives allreduce -e 4K --budget 0.01 -o "$OUT/same" > "$OUT/same.txt" 2>&1 \
  || { cat "$OUT/same.txt"; fail "same versions: the run failed"; }
python3 - "$OUT/same/report.json" "$PFX" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
hosts = sorted(rep["provenance"]["hosts"])
assert hosts == [f"{sys.argv[2]}-node{i}" for i in range(3)], hosts
PY
echo "ok: gpunet-run refuses mixed versions on a fake cluster and runs with one version"
