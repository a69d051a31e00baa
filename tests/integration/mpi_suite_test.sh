#!/usr/bin/env bash
# Runs the mpi suite under the real mpirun (or without it for NP=0 = singleton) and checks the report.
# Usage: mpi_suite_test.sh BINARY NP
source "$(dirname "$0")/lib.sh"
bin=$1 np=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(-b 1K -e 1M -f 8 -n 3 --budget 0.02 -o "$out/r" --timeout 60)
# The one-rank run also writes the evidence bundle (docs/evidence.md), after every output, with the
# topo suite before it for the node's hwloc export.
evidence=0
if [[ $np == 1 ]]; then evidence=1 && args+=(--evidence --suites topo,mpi); else args+=(--suites mpi); fi
if [[ $np == 0 ]]; then
  "$bin" "${args[@]}" >"$out/log" 2>&1 || { cat "$out/log"; fail "singleton run exited $?"; }
  np=1
else
  "${MPIRUN[@]}" -np "$np" "$bin" "${args[@]}" >"$out/log" 2>&1 || { cat "$out/log"; fail "mpirun -np $np exited $?"; }
fi
grep -q "algbw(GB/s) busbw(GB/s)" "$out/log" || fail "console table missing"
check_report "$out/r" "$np"
if [[ $evidence == 1 ]]; then
  rc=0; "$bin" verify "$out/r/evidence.tar.gz" >"$out/verify" 2>&1 || rc=$?
  [[ $rc == 0 ]] || { cat "$out/log" "$out/verify"; fail "verify of the run's bundle exited $rc"; }
  tar -tzf "$out/r/evidence.tar.gz" >"$out/members"
  grep -qx evidence/results.jsonl "$out/members" || fail "the run's bundle lacks results.jsonl"
  # Each node's own hwloc export, which hwloc's own tools read back, and not again in its JSON section.
  xml=$(grep -x 'evidence/provenance/hwloc-.*\.xml' "$out/members" | head -1)
  [[ -n $xml ]] || { cat "$out/members"; fail "the run's bundle lacks the node's hwloc export"; }
  tar -xzf "$out/r/evidence.tar.gz" -C "$out"
  hwloc-info --input "$out/$xml" >"$out/hwloc-info" 2>&1 || { cat "$out/hwloc-info"; fail "hwloc-info cannot read $xml"; }
  grep -q "^depth 0:.*Machine" "$out/hwloc-info" || { cat "$out/hwloc-info"; fail "hwloc-info: no machine in $xml"; }
  ! grep -q hwloc_xml "$out"/evidence/provenance/topology-*.json || fail "the topology section still holds the export"
fi
# One rank: each collective is skipped with the reason in the console and report.md, and no figure.
if [[ $np == 1 ]]; then
  [[ $(grep -c "^# mpi .* skipped (one rank: " "$out/log") == 5 ]] || { cat "$out/log"; fail "one rank: 5 skipped collectives expected"; }
  grep -q "one rank: a collective over one rank moves no data" "$out/r/report.md" || fail "report.md lacks the reason"
  ! grep -q "^mpi," "$out/r/sweeps.csv" || fail "sweeps.csv has a one-rank figure"
  exit 0
fi
# report.md: every table in the columns of its kind, the summary first
python3 "$(dirname "$0")/../report/md_tables.py" "$out/r/report.md" --require Summary --require sweep >/dev/null ||
  { python3 "$(dirname "$0")/../report/md_tables.py" "$out/r/report.md"; fail "report.md tables"; }
# The sweep's footer, from the records the results sink kept for it while the suite ran.
grep -q "^# Avg bus bandwidth *: [0-9]" "$out/log" || { cat "$out/log"; fail "the console lacks the sweep's footer"; }
# The run's records are its results.jsonl's re-render: rank 0 reads the file back at the end rather
# than holding what it wrote.
"$bin" report "$out/r/results.jsonl" -o "$out/rr" >"$out/rr.log" 2>&1 || true
[[ -s $out/rr/report.json ]] || { cat "$out/rr.log"; fail "report of the run's results.jsonl wrote no report.json"; }
python3 - "$out/r/report.json" "$out/rr/report.json" <<'PY' || fail "the run's records differ from its results.jsonl's re-render"
import json, sys
run, again = (json.load(open(p))["results"] for p in sys.argv[1:3])
assert len(run) == len(again) and run == again, [i for i, (a, b) in enumerate(zip(run, again)) if a != b][:5]
PY
