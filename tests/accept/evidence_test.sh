#!/usr/bin/env bash
# The evidence bundle without MPI: `gpunet-bench report FIXTURE -o DIR --evidence [--sign-key KEY]` and
# `gpunet-bench verify`: an intact bundle verifies (exit 0, and `sha256sum -c` agrees), a changed,
# removed or added file is refused naming it (exit 1), a signed bundle verifies with `ssh-keygen -Y
# verify` itself and with --allowed-signers, and a damaged archive, a non-archive, an archive without
# a manifest or with a link member are unusable input (exit 2).
# Usage: evidence_test.sh PATH/TO/gpunet-bench
set -euo pipefail
source "$(dirname "$0")/../integration/lib.sh"
BIN=$1
DATA=$(cd "$(dirname "$0")/../data/report" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# verify_expect CODE PATTERN BUNDLE [ARGS...]: verify's exit code, and its one line matches PATTERN.
verify_expect() {
  local want=$1 pattern=$2
  shift 2
  local rc=0
  timeout 30 "$BIN" verify "$@" >"$T/v.out" 2>"$T/v.err" || rc=$?
  [[ $rc == "$want" ]] || { cat "$T/v.out" "$T/v.err"; fail "verify $*: exit $rc, want $want"; }
  # The verdict on stdout when intact, else one line on stderr and nothing on stdout.
  local said=$T/v.err quiet=$T/v.out
  [[ $want == 0 ]] && said=$T/v.out quiet=$T/v.err
  [[ $(wc -l <"$said") == 1 && ! -s $quiet ]] || { cat "$T/v.out" "$T/v.err"; fail "verify $*: want one line on ${said##*/}, nothing else"; }
  grep -Eq -- "$pattern" "$said" || { cat "$said"; fail "verify $*: no line matching '$pattern'"; }
}

# repack DIR OUT: the unpacked bundle in DIR (holding evidence/) packed again as OUT.
repack() { tar -czf "$2" -C "$1" evidence; }

# 1. An unsigned bundle of a re-rendered fixture: the outputs, the provenance, the manifest; intact.
"$BIN" report "$DATA/default_np2.json" -o "$T/r" --evidence >"$T/r.out" 2>"$T/r.err" ||
  { cat "$T/r.out" "$T/r.err"; fail "report --evidence exited $?"; }
grep -q "^# evidence: $T/r/evidence.tar.gz (.* files in its SHA-256 manifest, unsigned" "$T/r.out" || { cat "$T/r.out"; fail "no evidence line"; }
mkdir "$T/u" && tar -xzf "$T/r/evidence.tar.gz" -C "$T/u"
for f in report.json report.md report.html junit.xml metrics.prom provenance/provenance.json provenance/topology-vm.json MANIFEST.sha256; do
  [[ -f $T/u/evidence/$f ]] || fail "the bundle lacks $f"
done
[[ ! -e $T/u/evidence/evidence.tar.gz && ! -e $T/u/evidence/MANIFEST.sha256.sig ]] || fail "the bundle holds itself or a signature"
(cd "$T/u/evidence" && sha256sum --quiet -c MANIFEST.sha256) || fail "sha256sum -c disagrees with the manifest"
grep -q '"git_commit": "eb01a2c6a084"' "$T/u/evidence/provenance/provenance.json" || fail "provenance is not the run's"
verify_expect 0 "intact: [0-9]+ files match MANIFEST.sha256; not signed" "$T/r/evidence.tar.gz"

# 2. report.json changed after the bundle was made: exit 1 naming it; a file removed or added likewise.
cp -a "$T/u" "$T/c" && sed -i 's/"eb01a2c6a084"/"000000000000"/' "$T/c/evidence/report.json" && repack "$T/c" "$T/changed.tar.gz"
verify_expect 1 "^gpunet-bench verify: .*: report.json: changed" "$T/changed.tar.gz"
cp -a "$T/u" "$T/m" && rm "$T/m/evidence/junit.xml" && repack "$T/m" "$T/missing.tar.gz"
verify_expect 1 "junit.xml: listed in the manifest but missing" "$T/missing.tar.gz"
cp -a "$T/u" "$T/a" && echo extra >"$T/a/evidence/notes.txt" && repack "$T/a" "$T/added.tar.gz"
verify_expect 1 "notes.txt: in the bundle but not in the manifest" "$T/added.tar.gz"

# 3. Signed with a throwaway ed25519 key, with the spec in the bundle: ssh-keygen -Y verify accepts the
#    manifest's signature; so does gpunet-bench verify, with and without allowed signers.
ssh-keygen -q -t ed25519 -N '' -C tester -f "$T/key"
echo "tester@example.org $(cut -d' ' -f1,2 "$T/key.pub")" >"$T/allowed_signers"
rc=0; "$BIN" report "$DATA/default_np2.json" -o "$T/s" --spec "$(dirname "$0")/../../ci/spec-example.json" --evidence --sign-key "$T/key" \
  >"$T/s.out" 2>"$T/s.err" || rc=$?
[[ -f $T/s/evidence.tar.gz ]] || { cat "$T/s.out" "$T/s.err"; fail "no signed bundle (exit $rc)"; }
grep -q ", signed with $T/key;" "$T/s.out" || { cat "$T/s.out"; fail "no signed evidence line"; }
mkdir "$T/su" && tar -xzf "$T/s/evidence.tar.gz" -C "$T/su"
[[ -f $T/su/evidence/inputs/spec-spec-example.json ]] || fail "the spec is not in the bundle"
ssh-keygen -Y verify -f "$T/allowed_signers" -I tester@example.org -n gpunet-bench-evidence \
  -s "$T/su/evidence/MANIFEST.sha256.sig" <"$T/su/evidence/MANIFEST.sha256" >"$T/ssh.out" 2>&1 ||
  { cat "$T/ssh.out"; fail "ssh-keygen -Y verify refuses the bundle's signature"; }
verify_expect 0 "intact: .*; signed by tester@example.org \(checked with $T/allowed_signers\)" "$T/s/evidence.tar.gz" --allowed-signers "$T/allowed_signers"
verify_expect 0 "signer NOT checked" "$T/s/evidence.tar.gz"
ssh-keygen -q -t ed25519 -N '' -C other -f "$T/other"
echo "tester@example.org $(cut -d' ' -f1,2 "$T/other.pub")" >"$T/other_signers"
verify_expect 1 "MANIFEST.sha256.sig: its key is not in" "$T/s/evidence.tar.gz" --allowed-signers "$T/other_signers"
verify_expect 1 "MANIFEST.sha256.sig: not a valid signature by someone" "$T/s/evidence.tar.gz" --allowed-signers "$T/allowed_signers" --identity someone
verify_expect 1 "the bundle is not signed" "$T/r/evidence.tar.gz" --allowed-signers "$T/allowed_signers"
#    report.json and its manifest line both changed: the manifest no longer matches its signature.
cp -a "$T/su" "$T/sc" && sed -i 's/"eb01a2c6a084"/"000000000000"/' "$T/sc/evidence/report.json"
(cd "$T/sc/evidence" && sed -i "s/^[0-9a-f]*  report.json\$/$(sha256sum report.json | cut -d' ' -f1)  report.json/" MANIFEST.sha256)
repack "$T/sc" "$T/resigned.tar.gz"
verify_expect 1 "MANIFEST.sha256.sig: the signature does not match the manifest" "$T/resigned.tar.gz"

# 4. Unusable input: a cut archive, a file that is no archive, no manifest, a link member, no file.
head -c 300 "$T/r/evidence.tar.gz" >"$T/cut.tar.gz"
verify_expect 2 "not a readable tar.gz archive" "$T/cut.tar.gz"
echo "not an archive" >"$T/text.tar.gz"
verify_expect 2 "not a readable tar.gz archive" "$T/text.tar.gz"
cp -a "$T/u" "$T/n" && rm "$T/n/evidence/MANIFEST.sha256" && repack "$T/n" "$T/nomanifest.tar.gz"
verify_expect 2 "no evidence/MANIFEST.sha256 in the archive" "$T/nomanifest.tar.gz"
cp -a "$T/u" "$T/l" && ln -s /etc/passwd "$T/l/evidence/passwd" && repack "$T/l" "$T/link.tar.gz"
verify_expect 2 "member 'evidence/passwd': not a regular file or folder" "$T/link.tar.gz"
verify_expect 2 "no such file" "$T/absent.tar.gz"

# 5. Options: --sign-key needs --evidence and an existing key; --identity needs --allowed-signers.
rc=0; "$BIN" report "$DATA/default_np2.json" -o "$T/x" --sign-key "$T/key" 2>"$T/o.err" || rc=$?
[[ $rc == 2 ]] && grep -q -- "--sign-key needs --evidence" "$T/o.err" || { cat "$T/o.err"; fail "--sign-key alone: exit $rc"; }
rc=0; "$BIN" report "$DATA/default_np2.json" -o "$T/x" --evidence --sign-key "$T/nokey" 2>"$T/o.err" || rc=$?
[[ $rc == 2 && ! -e $T/x ]] || { cat "$T/o.err"; fail "missing --sign-key file: exit $rc"; }
rc=0; "$BIN" verify "$T/r/evidence.tar.gz" --identity x 2>"$T/o.err" || rc=$?
[[ $rc == 2 ]] && grep -q -- "--identity needs --allowed-signers" "$T/o.err" || { cat "$T/o.err"; fail "--identity alone: exit $rc"; }
#    A key ssh-keygen cannot sign with (a passphrase, no terminal): exit 2 at once, one line, nothing written.
ssh-keygen -q -t ed25519 -N secret -C locked -f "$T/locked"
rc=0; timeout 30 "$BIN" report "$DATA/default_np2.json" -o "$T/x" --evidence --sign-key "$T/locked" 2>"$T/o.err" || rc=$?
[[ $rc == 2 && $(wc -l <"$T/o.err") == 1 && ! -e $T/x ]] && grep -q -- "--sign-key $T/locked: ssh-keygen cannot load the key" "$T/o.err" ||
  { cat "$T/o.err"; fail "a key with a passphrase: exit $rc"; }
rc=0; timeout 30 "$BIN" --check --evidence --sign-key "$T/locked" -o "$T/x" >/dev/null 2>"$T/o.err" || rc=$?
[[ $rc == 2 ]] && grep -q -- "--sign-key $T/locked: ssh-keygen cannot load the key" "$T/o.err" || { cat "$T/o.err"; fail "--check with a locked key: exit $rc"; }
echo "evidence_test: ok"
