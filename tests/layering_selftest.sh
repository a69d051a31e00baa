#!/usr/bin/env bash
# layering_test.sh must fail on a tree with violations: report/ including bench/, and one suite
# including another's files. Usage: layering_selftest.sh SOURCE_DIR.
set -uo pipefail
src=${1:?usage: layering_selftest.sh SOURCE_DIR}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cp -r "$src/bench" "$src/report" "$src/topology" "$t/"
printf '#include "bench/engines/socket.hpp"\n' >> "$t/report/record.cpp"
printf '#include "bench/suites/tcp/hello.hpp"\n' >> "$t/bench/suites/node/suite.cpp"
out=$(bash "$src/tests/layering_test.sh" "$t")
rc=$?
echo "$out"
[[ $rc -eq 1 ]] || { echo "FAIL: exit $rc on a tree with violations"; exit 1; }
grep -q 'report/record.cpp includes bench/engines/socket.hpp' <<<"$out" || { echo "FAIL: report/ violation not named"; exit 1; }
grep -q 'suite node) includes bench/suites/tcp/hello.hpp (suite tcp)' <<<"$out" || { echo "FAIL: cross-suite include not named"; exit 1; }
echo "ok: both violations caught"
