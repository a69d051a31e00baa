#!/usr/bin/env bash
# launch/fakecluster itself: nodes with their own host names and addresses, tbf where asked,
# mpirun across them, exit codes passed on, and nothing left behind (also after a failure).
source "$(dirname "$0")/fakecluster_lib.sh"
fc_start 3 --rate 100mbit --rate-node 2=25mbit

for i in 0 1 2; do
  h=$("$FC" exec $i --prefix "$PFX" -- hostname)
  [[ $h == "$PFX-node$i" ]] || fail "node $i host name is '$h'"
  "$FC" exec $i --prefix "$PFX" -- ip -br addr show eth0 | grep -q "10.77.0.$((i + 1))/24" || fail "node $i data address"
done
"$FC" exec 2 --prefix "$PFX" -- tc qdisc show dev eth0 | grep -q "tbf.*rate 25Mbit" || fail "node 2 is not shaped to 25 Mbit/s"
"$FC" exec 0 --prefix "$PFX" -- tc qdisc show dev eth0 | grep -q "tbf.*rate 100Mbit" || fail "node 0 is not shaped to 100 Mbit/s"
ip -n "$PFX-sw" link show d2 >/dev/null || fail "switch port of node 2"
tc -n "$PFX-sw" qdisc show dev d2 | grep -q "rate 25Mbit" || fail "node 2's inbound direction is not shaped"
# Reachable: a connect to a closed port on node 2 is refused at once (no ping here).
said=$("$FC" exec 0 --prefix "$PFX" -- timeout 3 bash -c 'echo >/dev/tcp/10.77.0.3/9' 2>&1 || true)
[[ $said == *"Connection refused"* ]] || fail "node 0 cannot reach node 2: $said"

hosts=$(fc_mpirun 60 -np 3 hostname | sort | tr '\n' ' ')
[[ $hosts == "$PFX-node0 $PFX-node1 $PFX-node2 " ]] || fail "mpirun ran on: $hosts"

"$FC" down --prefix "$PFX"
[[ -z $(ip netns list | grep "^$PFX-" || true) ]] || fail "namespaces left after down"
[[ ! -e /run/fakecluster/$PFX ]] || fail "state left after down"

# run: up, mpirun, down, also when the command fails.
rc=0
"$FC" run 2 --prefix "$PFX" --timeout 60 -- -np 2 sh -c 'exit 3' >/dev/null 2>&1 || rc=$?
[[ $rc == 3 ]] || fail "run passed on exit code $rc instead of 3"
[[ -z $(ip netns list | grep "^$PFX-" || true) ]] || fail "namespaces left after a failed run"
rc=0
"$FC" up 33 --prefix "$PFX" >/dev/null 2>&1 || rc=$?
[[ $rc == 2 ]] || fail "up 33 exited $rc, not 2"
PFX=""
echo "ok: fakecluster builds, runs, passes exit codes on and cleans up"
