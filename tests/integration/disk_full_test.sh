#!/usr/bin/env bash
# Disk full mid-run: -o is a tmpfs of a few KB (mounted and removed here), too small for every
# record. results.jsonl must stay valid JSON lines (no cut line), the run must say at once which
# record was lost and where, stop measuring at the next step (not after the whole job), write every
# record it measured to a fallback it names ($TMPDIR/gpunet-bench-PID/results.jsonl), end with exit
# code 3, and leave no *.tmp behind.
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
job=(--suites mpi -b 1K -e 256K -f 2 -n 2 --budget 0.01 --timeout 60)
# Two ranks: one rank's collectives are skipped (no figure), too few records to fill the disk.
ranks=("${MPIRUN[@]}" -np 2 -x TMPDIR)
# The whole job's record count, on a roomy disk.
TMPDIR=${TMPDIR:-/tmp} timeout 120 "${ranks[@]}" "$bin" "${job[@]}" -q -o "$work/roomy" >/dev/null 2>&1 || fail "the job fails on a roomy disk"
total=$(wc -l <"$work/roomy/results.jsonl")
mkdir "$work/tmp"
set +e
TMPDIR=$work/tmp timeout 120 "${ranks[@]}" "$bin" "${job[@]}" -o "$mnt" >"$work/out" 2>"$work/err"
rc=$?
set -e
cat "$work/out" "$work/err"
[[ $rc == 3 ]] || fail "exit code $rc, want 3"
grep -Eq "^gpunet-bench: error: $mnt/results.jsonl: cannot write the record mpi/[a-z_]+ .*: No space left on device \(the disk is full.*lost from the file, which keeps the [0-9]+ records before it" "$work/err" \
  || fail "no line that says which record was lost from results.jsonl, and why"
[[ $(grep -c "cannot write the record" "$work/err") == 1 ]] || fail "the first loss must be said once, not per record"
line=$(grep -E "^gpunet-bench: error: stopped measuring before step '[^']+' because $mnt/results.jsonl cannot be written; all [0-9]+ records measured are in $work/tmp/gpunet-bench-[0-9]+/results.jsonl \(render them with: gpunet-bench report .* -o DIR\)$" "$work/err") \
  || fail "no line that says the run stopped and where every record went"
fallback=$(sed -E 's/.* records measured are in (.*results.jsonl) \(render.*/\1/' <<<"$line")
said=$(sed -E 's/.*; all ([0-9]+) records measured.*/\1/' <<<"$line")
! grep -q "keeps every record" "$work/err" || fail "claims results.jsonl keeps every record"
printed=$(grep -c "^ *[0-9]" "$work/out" || true)
python3 - "$mnt/results.jsonl" "$printed" "$fallback" "$said" "$total" <<'PY'
import json, sys
data = open(sys.argv[1], "rb").read()
printed, said, total = int(sys.argv[2]), int(sys.argv[4]), int(sys.argv[5])
assert data == b"" or data.endswith(b"\n"), "results.jsonl ends in a cut line"
recs = [json.loads(l) for l in data.decode().splitlines()]
assert all(r["suite"] == "mpi" for r in recs), recs
assert len(recs) < printed, f"{len(recs)} records kept of {printed} printed: the disk was never full?"
lines = [json.loads(l) for l in open(sys.argv[3])]
assert "provenance" in lines[0] and lines[0]["provenance"]["hosts"] and lines[0]["provenance"]["start_time"], \
    f"the fallback does not begin with the run's provenance: {lines[0]}"
kept = lines[1:]
assert len(kept) == said >= printed, f"the fallback holds {len(kept)} records; the line says {said}; {printed} were printed"
assert kept[:len(recs)] == recs, "the fallback does not begin with the records results.jsonl holds"
assert said < total, f"measured {said} of the job's {total} records: the run did not stop at the next step"
print(f"ok: {len(recs)} whole records in results.jsonl, all {said} measured in the fallback, stopped before {total}")
PY
# The fallback renders like any results.jsonl.
"$bin" report "$fallback" -o "$work/from-fallback" >/dev/null || fail "the fallback does not render"
[[ -s $work/from-fallback/report.json ]] || fail "no report from the fallback"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["provenance"]; assert p["hosts"] and p["version"], p' \
  "$work/from-fallback/report.json" || fail "the report from the fallback lacks the run's hosts and version"
leftover=$(find "$mnt" -name '*.tmp')
[[ -z $leftover ]] || fail "temporary files left behind: $leftover"

# --save-baseline onto the full disk: refused before anything is measured (the way --check tries it),
# the message says the disk is full, and no file stays.
set +e
timeout 120 "$bin" --suites mpi --collectives allreduce -b 1K -e 1K -n 2 --budget 0.01 --timeout 60 -q \
  -o "$work/ok" --save-baseline "$mnt/base.json" >"$work/out2" 2>"$work/err2"
rc=$?
set -e
cat "$work/err2"
[[ $rc == 2 ]] || fail "--save-baseline on a full disk exited $rc, want 2"
grep -q "^gpunet-bench: error: --save-baseline $mnt/base.json: a file cannot be created in $mnt: No space left on device (the disk is full" "$work/err2" \
  || fail "--save-baseline on a full disk does not say the disk is full"
[[ ! -e $work/ok/results.jsonl ]] || fail "--save-baseline on a full disk was refused only after measuring"
set +e
"$bin" --check --save-baseline "$mnt/base.json" >/dev/null 2>"$work/err3"
rc=$?
set -e
[[ $rc == 2 ]] && grep -q "a file cannot be created in $mnt: No space left" "$work/err3" || fail "--check approves a baseline on a full disk"
[[ ! -e $mnt/base.json.tmp && ! -e $mnt/base.json ]] || fail "--save-baseline left a file behind on the full disk"
# An immutable results.jsonl (chattr +i) mid-run: the same stop and fallback, every record kept.
# Needs a file system with the immutable attribute (ext4, xfs, btrfs); skipped on others.
mkdir "$work/imm"
if chattr +i "$work/imm" 2>/dev/null && chattr -i "$work/imm"; then
  TMPDIR=$work/tmp timeout 120 "${ranks[@]}" "$bin" "${job[@]/0.01/0.05}" -q -o "$work/imm/out" >"$work/out4" 2>"$work/err4" &
  run=$!
  for _ in $(seq 600); do [[ -s $work/imm/out/results.jsonl ]] && break; sleep 0.05; done
  chattr +i "$work/imm/out/results.jsonl"
  set +e; wait "$run"; rc=$?; set -e
  chattr -i "$work/imm/out/results.jsonl"
  cat "$work/err4"
  [[ $rc == 3 ]] || fail "an immutable results.jsonl: exit code $rc, want 3"
  line=$(grep -E "^gpunet-bench: error: stopped measuring before step .* cannot be written; all [0-9]+ records measured are in " "$work/err4") \
    || fail "an immutable results.jsonl: no line that says where every record went"
  fallback=$(sed -E 's/.* records measured are in (.*results.jsonl) \(render.*/\1/' <<<"$line")
  said=$(sed -E 's/.*; all ([0-9]+) records measured.*/\1/' <<<"$line")
  [[ $(grep -c '"suite"' "$fallback") == "$said" ]] || fail "an immutable results.jsonl: the fallback lacks records"
  echo "ok: an immutable results.jsonl mid-run stops the run with all $said records in $fallback"
else
  echo "note: no immutable attribute on $work's file system; that case is not tested here"
fi
echo "ok: disk full is exit 3, said at once, the run stops and keeps every record in a fallback; --save-baseline names the full disk before measuring"
