#!/usr/bin/env bash
# The watchdog's channel across nodes: three nodes of launch/fakecluster, whose MPI wire-up runs on
# the control network (ctl0). While the mpi suite runs, the watchdog's connections use that network
# and none the data network (eth0). Then rank VICTIM (node VICTIM) is killed with kill -9: one line
# names it, its host and the step; mpirun returns 137 (128 + SIGKILL); no process is left.
#   fakecluster_fault_dead_rank.sh BIN VICTIM
source "$(dirname "$0")/fakecluster_lib.sh"
bin=$1 victim=$2
fc_start 3

fc_mpirun 90 -np 3 "$bin" --suites mpi -b 1K -e 64M -f 2 -n 5 --budget 0.3 --timeout 60 -q -o "$OUT/r" \
  >"$OUT/stdout" 2>"$OUT/stderr" &
job=$!
for _ in $(seq 300); do [[ $(cat "$OUT/r/results.jsonl" 2>/dev/null | wc -l) -ge 3 ]] && break; sleep 0.1; done
[[ -s $OUT/r/results.jsonl ]] || { cat "$OUT/stderr"; fail "no record was written before the fault"; }
# Rank 0 on node 0 holds one connection per member on the control network, none on the data network.
socks=$(ip netns exec "$PFX-node0" ss -Htn state established)
data=$(awk '$3 ~ /^10\.77\./' <<<"$socks")
[[ -z $data ]] || fail "connections on the data network: $data"
ctl=$(awk '$3 ~ /^10\.78\.0\.1:/ && $4 ~ /^10\.78\.0\.[23]:/' <<<"$socks" | wc -l)
(( ctl >= 2 )) || fail "rank 0 holds $ctl connections to the members on the control network: $socks"
pid=""
for p in $(ip netns pids "$PFX-node$victim"); do
  environ=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null || true)
  grep -qx "OMPI_COMM_WORLD_RANK=$victim" <<<"$environ" && pid=$p
done
[[ -n $pid ]] || fail "could not find rank $victim on node $victim"
SECONDS=0
kill -KILL "$pid"
rc=0
wait $job || rc=$?
elapsed=$SECONDS
cat "$OUT/stderr"
(( elapsed <= 15 )) || fail "the job ended $elapsed s after the fault"
[[ $rc == 137 ]] || fail "exit code $rc, want 137"
for i in 0 1 2; do
  left=$(ip netns pids "$PFX-node$i" | xargs -r ps -o comm= -p | grep -c gpunet-bench || true)
  [[ $left == 0 ]] || fail "$left gpunet-bench processes left on node $i"
done
[[ $(grep -c '^gpunet-bench: ' "$OUT/stderr") == 1 ]] || fail "want exactly one line from gpunet-bench"
grep -E "^gpunet-bench: rank $victim \($PFX-node$victim\) died (during|after) step 'mpi [a-z_]+ [0-9]+[KMG]?( verify)?': its control connection closed" \
  "$OUT/stderr" || fail "no line names rank $victim, its host and the step"
python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$OUT/r/results.jsonl"
echo "ok: rank $victim killed on node $victim: exit $rc, job gone $elapsed s after the fault"
