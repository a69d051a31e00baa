#!/usr/bin/env bash
# layering_test.sh must fail on a tree with violations, and name each one: report/ including bench/,
# one suite including another's files, the core including an engine and the suite list, an engine
# including a suite, the sockets layer including the core, common/ including report/, a report/ folder including a later one (analysis including render, the model including judge), and the core
# declaring a suite's entry point, and a record's suite compared with a suite's name outside the
# suites (in report/ and in the core). Usage: layering_selftest.sh SOURCE_DIR.
set -uo pipefail
src=${1:?usage: layering_selftest.sh SOURCE_DIR}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cp -r "$src/bench" "$src/report" "$src/topology" "$src/common" "$t/"

# plant FILE INCLUDE EXPECTED: add `#include "INCLUDE"` to FILE; the check must print EXPECTED.
planted=()
plant() {
  printf '#include "%s"\n' "$2" >>"$t/$1"
  planted+=("$3")
}
plant report/model/record.cpp bench/net/socket.hpp 'report/model/record.cpp includes bench/net/socket.hpp'
plant bench/suites/node/suite.cpp bench/suites/tcp/hello.hpp 'suite node) includes bench/suites/tcp/hello.hpp (suite tcp)'
plant bench/core/runner.cpp bench/engines/patterns.hpp 'bench/core/runner.cpp includes bench/engines/patterns.hpp'
plant bench/core/app.cpp bench/suites/suite_list.hpp 'bench/core/app.cpp includes bench/suites/suite_list.hpp'
plant bench/engines/numa.cpp bench/suites/tcp/hello.hpp 'bench/engines/numa.cpp includes bench/suites/tcp/hello.hpp'
plant bench/net/socket.cpp bench/core/config.hpp 'bench/net/socket.cpp includes bench/core/config.hpp'
plant common/strings.hpp report/model/record.hpp 'common/strings.hpp includes report/model/record.hpp'
plant report/analysis/direction.cpp report/render/outputs.hpp 'report/analysis/direction.cpp includes report/render/outputs.hpp'
plant report/model/figure.cpp report/judge/spec.hpp 'report/model/figure.cpp includes report/judge/spec.hpp'
printf 'Suite tcp_suite();\n' >>"$t/bench/core/suite.hpp"
planted+=("names a suite's entry point")
printf 'bool is_tcp(const Record& r) { return r.suite == "tcp"; }\n' >>"$t/report/document/table_model.cpp"
planted+=("report/document/table_model.cpp:")
printf 'bool not_mpi(const Record& r) { return r.suite != "mpi"; }\n' >>"$t/bench/core/console_lines.cpp"
planted+=("bench/core/console_lines.cpp:")

out=$(bash "$src/tests/layering_test.sh" "$t")
rc=$?
echo "$out"
[[ $rc -eq 1 ]] || { echo "FAIL: exit $rc on a tree with violations"; exit 1; }
for want in "${planted[@]}"; do
  grep -qF -- "$want" <<<"$out" || { echo "FAIL: not named: $want"; exit 1; }
done
echo "ok: all ${#planted[@]} planted violations caught"
