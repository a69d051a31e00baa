#!/usr/bin/env bash
# Disk full mid-run: -o is a tmpfs of a few KB (mounted and removed here), too small for every
# record. results.jsonl must stay valid JSON lines (no cut line), the run must say at once which
# record was lost and where, end with exit code 3, and leave no *.tmp behind.
# Usage: disk_full_test.sh BINARY. Exits 77 (skipped) where a tmpfs cannot be mounted.
source "$(dirname "$0")/lib.sh"
bin=$1
work=$(mktemp -d)
mnt=$work/full
mkdir "$mnt"
cleanup() { umount "$mnt" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
if ! mount -t tmpfs -o size=8k,mode=0755 tmpfs "$mnt" 2>/dev/null; then
  echo "skipped: cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)"
  exit 77
fi
set +e
timeout 120 "$bin" --suites mpi -b 1K -e 256K -f 2 -n 2 --budget 0.01 --timeout 60 -o "$mnt" >"$work/out" 2>"$work/err"
rc=$?
set -e
cat "$work/out" "$work/err"
[[ $rc == 3 ]] || fail "exit code $rc, want 3"
grep -Eq "^gpunet-bench: error: $mnt/results.jsonl: cannot write the record mpi/[a-z_]+ .*: No space left on device \(the disk is full.*lost from the file, which keeps the [0-9]+ records before it" "$work/err" \
  || fail "no line that says which record was lost from results.jsonl, and why"
[[ $(grep -c "cannot write the record" "$work/err") == 1 ]] || fail "the first loss must be said once, not per record"
grep -Eq "records are not in $mnt/results.jsonl" "$work/err" || fail "the end of the run does not say how many records are missing"
! grep -q "keeps every record" "$work/err" || fail "claims results.jsonl keeps every record"
printed=$(grep -c "^ *[0-9]" "$work/out" || true)
python3 - "$mnt/results.jsonl" "$printed" <<'PY'
import json, sys
data = open(sys.argv[1], "rb").read()
assert data == b"" or data.endswith(b"\n"), "results.jsonl ends in a cut line"
recs = [json.loads(l) for l in data.decode().splitlines()]
assert all(r["suite"] == "mpi" for r in recs), recs
assert len(recs) < int(sys.argv[2]), f"{len(recs)} records kept of {sys.argv[2]} printed: the disk was never full?"
print(f"ok: {len(recs)} whole records kept of {sys.argv[2]} printed")
PY
leftover=$(find "$mnt" -name '*.tmp')
[[ -z $leftover ]] || fail "temporary files left behind: $leftover"

# --save-baseline onto the full disk: the message says the disk is full, and no base.json.tmp stays.
set +e
timeout 120 "$bin" --suites mpi --collectives allreduce -b 1K -e 1K -n 2 --budget 0.01 --timeout 60 -q \
  -o "$work/ok" --save-baseline "$mnt/base.json" >"$work/out2" 2>"$work/err2"
rc=$?
set -e
cat "$work/err2"
[[ $rc != 0 ]] || fail "--save-baseline on a full disk exited 0"
grep -q "^gpunet-bench: error: --save-baseline: cannot write $mnt/base.json: No space left on device (the disk is full" "$work/err2" \
  || fail "--save-baseline on a full disk does not say the disk is full"
[[ ! -e $mnt/base.json.tmp && ! -e $mnt/base.json ]] || fail "--save-baseline left a file behind on the full disk"
echo "ok: disk full is exit 3, said at once, results.jsonl stays valid; --save-baseline names the full disk"
