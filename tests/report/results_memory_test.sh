#!/usr/bin/env bash
# `gpunet-bench report` in a cgroup whose memory limit (512 MiB) holds a small report's records but not
# half of a 4 GiB results file: the large one is refused with one line naming the file, the limit and
# what to do (exit 2) before anything is read (a binary without the check is killed for memory); the
# small report renders inside it. Skips (77) where no memory cgroup can be made (not root, or
# cgroup v2 without the memory controller delegated).
# Usage: results_memory_test.sh PATH/TO/gpunet-bench PATH/TO/report.json
set -euo pipefail
BIN=$1 SMALL=$2
T=$(mktemp -d)
CG=""
cleanup() {
  if [[ -n $CG && -d $CG ]]; then rmdir "$CG" 2> /dev/null || true; fi
  rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
limit=$((512 * 1024 * 1024))  # room for a small report under the sanitizers too
if [[ -w /sys/fs/cgroup/memory ]]; then
  CG=/sys/fs/cgroup/memory/gpunet_room_$$
  mkdir "$CG" && echo $limit > "$CG/memory.limit_in_bytes"
elif [[ -w /sys/fs/cgroup ]] && grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2> /dev/null; then
  CG=/sys/fs/cgroup/gpunet_room_$$
  mkdir "$CG" && echo $limit > "$CG/memory.max"
else
  echo "no memory cgroup can be made here: skipped"
  exit 77
fi
in_cgroup() { sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CG" "$@"; }

truncate -s 4G "$T/big.jsonl"  # sparse: its size is all the check reads
rc=0
in_cgroup "$BIN" report "$T/big.jsonl" -o "$T/big" > "$T/big.out" 2> "$T/big.err" || rc=$?
[[ $rc == 2 ]] || { cat "$T/big.err"; fail "a 4 GiB results file under a 512 MiB limit: exit $rc, expected 2"; }
[[ $(wc -l < "$T/big.err") == 1 ]] || { cat "$T/big.err"; fail "more than one line"; }
grep -q "^gpunet-bench report: $T/big.jsonl: its records need about as much memory as the file's 4.3 GB to be analysed (never less than half), and this process may take .* GB more (the memory limit of this process's cgroup, 0.5 GB): analyse it where there is more (gpunet-bench report $T/big.jsonl -o DIR), or measure fewer pairs (--tcp-pairs random:K)$" "$T/big.err" ||
  { cat "$T/big.err"; fail "not the line that names the file, the limit and what to do"; }
[[ ! -e $T/big/report.md ]] || fail "a report was written for a refused file"

rc=0
in_cgroup "$BIN" report "$SMALL" -o "$T/small" > "$T/small.out" 2>&1 || rc=$?
[[ $rc == 0 || $rc == 1 ]] || { cat "$T/small.out"; fail "a small report under the limit: exit $rc"; }
[[ -s $T/small/report.md ]] || fail "no report.md for the small report under the limit"
echo "results_memory_test: ok"
