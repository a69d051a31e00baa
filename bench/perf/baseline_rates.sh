#!/usr/bin/env bash
# False-alarm and detection rates of the baseline comparison on a 4-node launch/fakecluster at 1 Gbit/s
# with `--suites topo,tcp --tcp-if eth0` (otherwise default options). Root; long (about 45 s a run).
#   1. one baseline run, then TRIES unchanged reruns: counts reruns with any SLOWER figure;
#   2. TRIES runs with node 3's link at half rate: counts runs where SLOWER is exactly the pair
#      figures (neighbours, matrix) that involve node 3, and any SLOWER without node 3;
#   3. TRIES runs with node 3's link at 75 %: counts runs where every pair figure with node 3 is SLOWER.
# Usage: bench/perf/baseline_rates.sh build/gpunet-bench [TRIES (10)] [PREFIX (br)]
#   KEEP=DIR keeps every run's outputs there (default: removed at the end).
#   CASES="unchanged half drop25" (default): the cases to run, after the baseline run.
# Run it under `flock /tmp/gpunet-fc.lock`.
set -euo pipefail
bin=$(realpath "$1"); tries=${2:-10}; pfx=${3:-br}
root=$(cd "$(dirname "$0")/../.." && pwd)
fc=$root/launch/fakecluster
out=${KEEP:-$(mktemp -d)}
mkdir -p "$out"
trap '"$fc" down --prefix "$pfx" >/dev/null 2>&1 || true; [[ -n ${KEEP:-} ]] || rm -rf "$out"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$fc" up 4 --rate 1gbit --prefix "$pfx" >/dev/null
run() { echo "$(date -u +%T) run $*" >&2; "$fc" mpirun --prefix "$pfx" --timeout 300 -- -np 4 "$bin" --suites topo,tcp --tcp-if eth0 -q "$@" >/dev/null 2>&1 || true; }
rate() {  # rate of node 3's link, both directions (tbf as launch/fakecluster sets it)
  tc -n "$pfx-node3" qdisc replace dev eth0 root tbf rate "$1" burst "$2" latency 20ms
  tc -n "$pfx-sw" qdisc replace dev d3 root tbf rate "$1" burst "$2" latency 20ms
}
judge() {  # judge RUNDIR MODE: prints one line of counts for the run (and appends it to $out/lines)
  python3 - "$1/report.json" "$pfx-node3" "$2" <<'PY' | tee -a "$out/lines"
import json, os, sys
path, n3, mode = sys.argv[1], sys.argv[2], sys.argv[3]
if not os.path.exists(path):
    print(mode, "run failed: no report.json"); sys.exit(0)
rows = json.load(open(path)).get("extra", {}).get("baseline", {}).get("rows", [])
pairs = [r for r in rows if "goodput_Gbps" in r["figure"] and ("/matrix " in r["figure"] or "/neighbours " in r["figure"])]
slower = {r["figure"] for r in rows if r["change"] == "SLOWER"}
with3 = {r["figure"] for r in pairs if n3 in r["hosts"]}
stray = sorted(r["figure"] for r in rows if r["change"] == "SLOWER" and n3 not in r["hosts"])
lat = [r for r in rows if " p50 " in r["figure"] or r["figure"].endswith(" p50")]
print(mode, "figures", len(rows), "slower", len(slower), "pairs_with_node3_slower", len(with3 & slower), "of", len(with3),
      "exact", int({f for f in slower if f in {p["figure"] for p in pairs}} == with3),
      "latency_slower", sum(r["change"] == "SLOWER" for r in lat), "of", len(lat),
      "stray", len(stray), *stray[:3])
PY
}
summary() {  # the counts of point 4 of the baseline rule's acceptance, per mode
  python3 - "$out/lines" <<'PY'
import sys
runs = {}
for line in open(sys.argv[1]):
    w = line.split(); runs.setdefault(w[0], []).append(w)
def val(w, key): return int(w[w.index(key) + 1]) if key in w else None
for mode, ws in runs.items():
    ok = [w for w in ws if "slower" in w]
    if mode == "unchanged":
        print(f"unchanged: {sum(val(w, 'slower') == 0 for w in ok)} of {len(ws)} reruns without any SLOWER")
    else:
        exact = sum(val(w, "exact") == 1 and val(w, "stray") == 0 for w in ok)
        every = sum(val(w, "pairs_with_node3_slower") == int(w[w.index("pairs_with_node3_slower") + 3]) for w in ok)
        print(f"{mode}: {every} of {len(ws)} runs with every pair figure of node 3 SLOWER; "
              f"{exact} of {len(ws)} with exactly those and no other SLOWER")
PY
}
run -o "$out/base" --save-baseline "$out/base.json"
for c in ${CASES:-unchanged half drop25}; do
  case $c in
    unchanged) rate 1gbit 125000 ;;
    half) rate 500mbit 62500 ;;
    drop25) rate 750mbit 93750 ;;
    *) echo "baseline_rates.sh: unknown case '$c' in CASES (unchanged, half, drop25)" >&2; exit 2 ;;
  esac
  for i in $(seq "$tries"); do run -o "$out/$c$i" --baseline "$out/base.json"; judge "$out/$c$i" "$c"; done
done
summary
