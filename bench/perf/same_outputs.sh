#!/usr/bin/env bash
# Before and after a change to report/: the same offline commands (`gpunet-bench report` plain, with
# --step-compute-s, with --spec, with --spec and --baseline) run by two binaries on the same inputs; every
# output file, the console and the exit code compared byte for byte. Exit 0 when all agree.
#
# usage: bench/perf/same_outputs.sh OLD_BINARY NEW_BINARY INPUT...   (report.json or results.jsonl files)
# e.g.   git worktree or checkout of the old commit, build its gpunet-bench, copy it aside, then
#        bench/perf/same_outputs.sh /tmp/gpunet-bench-old build/gpunet-bench tests/data/report/*.json
set -uo pipefail
(($# >= 3)) || { echo "usage: same_outputs.sh OLD_BINARY NEW_BINARY INPUT..." >&2; exit 2; }
old=$1 new=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One promise the figures of most runs meet and one none meets: both verdict paths are taken.
echo '{"spec_version": 1, "name": "two promises", "bandwidth": [{"suite": "nccl", "name": "allreduce", "min": 1e-9},
  {"suite": "mpi", "name": "allreduce", "min": 1e6}]}' >"$work/spec.json"
status=0 i=0
for input in "$@"; do
  i=$((i + 1))
  "$old" report "$input" -o "$work/base$i" --save-baseline "$work/base$i.json" >/dev/null 2>&1
  for mode in plain train spec spec+baseline; do
    case $mode in
      plain) args=() ;;
      train) args=(--step-compute-s 1.2) ;;
      spec) args=(--spec "$work/spec.json" --step-compute-s 1.2) ;;
      spec+baseline) args=(--spec "$work/spec.json" --baseline "$work/base$i.json") ;;
    esac
    for side in old new; do
      "${!side}" report "$input" "${args[@]}" -o "$work/out" >"$work/$side.console" 2>&1
      echo "exit $?" >>"$work/$side.console"
      mkdir -p "$work/out" && rm -f "$work/out/.gpunet-bench.lock"  # an empty folder when nothing was written
      rm -rf "$work/$side" && mv "$work/out" "$work/$side"
    done
    if diff -r "$work/old" "$work/new" >/dev/null && diff "$work/old.console" "$work/new.console" >/dev/null; then
      echo "same: $input, $mode ($(tail -1 "$work/new.console"))"
    else
      echo "DIFFERENT: $input, $mode"
      diff -rq "$work/old" "$work/new" | head -5
      diff "$work/old.console" "$work/new.console" | cut -c1-200 | head -5
      status=1
    fi
  done
done
exit $status
