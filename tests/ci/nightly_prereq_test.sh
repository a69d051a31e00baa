#!/usr/bin/env bash
# ci/nightly.sh says in one line what it is missing before it launches anything (exit 2): as root, the
# two variables without which Open MPI's mpirun refuses to start; a gpunet-bench that is not built.
# No MPI job runs (about 1 s). Usage: nightly_prereq_test.sh PATH/TO/gpunet-bench
set -euo pipefail
BIN=$1
NIGHTLY=$(cd "$(dirname "$0")/../.." && pwd)/ci/nightly.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
one_line() { [[ $(wc -l < "$1") == 1 ]] || { cat "$1"; fail "$2: expected one line"; }; }

rc=0; "$NIGHTLY" --launcher local --bench "$T/nothing" --baseline "$T/b.json" --artifacts "$T/a" > "$T/o1" 2> "$T/e1" || rc=$?
[[ $rc == 2 ]] || fail "missing bench: exit $rc"
one_line "$T/e1" "missing bench"
grep -q "no gpunet-bench at $T/nothing: build it" "$T/e1" || fail "missing bench: $(cat "$T/e1")"

if ((EUID == 0)) && mpirun --version 2>/dev/null | grep -q "Open MPI"; then
  rc=0; env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM "$NIGHTLY" --launcher local --bench "$BIN" \
    --baseline "$T/b.json" --artifacts "$T/a" > "$T/o2" 2> "$T/e2" || rc=$?
  [[ $rc == 2 ]] || { cat "$T/o2" "$T/e2"; fail "root without the Open MPI variables: exit $rc"; }
  one_line "$T/e2" "root"
  grep -q "running as root: .*OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1" "$T/e2" || fail "root: $(cat "$T/e2")"
  [[ ! -e $T/b.json ]] || fail "a refused night must not create the baseline"
else
  echo "skip: the root case needs root and Open MPI"
fi
echo "ok: ci/nightly.sh prerequisites"
