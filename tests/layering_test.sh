#!/usr/bin/env bash
# The layering, checked on the #include lines (bench/README.md):
#   report/   includes nothing from bench/ or topology/;
#   topology/ includes nothing from bench/;
#   a suite's files include no other suite's files.
# Usage: layering_test.sh SOURCE_DIR. Exit 0 when clean, 1 with one line per violation.
set -euo pipefail
src=${1:?usage: layering_test.sh SOURCE_DIR}
cd "$src"

# The files of each suite: shell globs relative to the source root, as the tree is laid out now.
# When a suite moves into bench/suites/<name>/, its line becomes "name bench/suites/name/*".
suite_files() {
  cat <<'EOF'
topo   bench/suites/topo.cpp bench/suites/topo_suite.*
mpi    bench/suites/mpi_*
tcp    bench/tcp/*
rdma   bench/rdma/* bench/suites/rdma.cpp bench/suites/rdma_suite.*
nccl   bench/gpu/nccl_* bench/suites/nccl_suite.*
pcie   bench/suites/pcie_suite.*
node   bench/node/gbench_records.* bench/node/membw.* bench/suites/node_suite.*
EOF
}
# Not in any set, shared by several suites: bench/suites/node_local.* (leader-only runs, local
# timing), bench/suites/patterns.*, bench/suites/scaling*, bench/suites/console_lines.*, and the
# engines bench/gpu/{cuda_device,pcie_link,wait}.*, bench/node/numa.*.
# Shared engines (files of these folders in no suite's set) include nothing from bench/suites/.
engine_dirs="bench/gpu bench/node bench/rdma bench/tcp"

# Headers a suite may include from another suite's files: engines shared on purpose.
#   rdma uses the tcp suite's pair scheduler.
allowed() {
  case "$1 $2" in
    "rdma bench/tcp/schedule.hpp") return 0 ;;
  esac
  return 1
}

fail=0
violation() {
  echo "layering: $1"
  fail=1
}

includes() { grep -hoE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$@" 2>/dev/null | sed -E 's/.*"([^"]+)"/\1/'; }

for f in $(find report -name '*.cpp' -o -name '*.hpp' | sort); do
  for inc in $(includes "$f"); do
    case "$inc" in bench/* | topology/*) violation "$f includes $inc (report/ knows the result model only)" ;; esac
  done
done
for f in $(find topology -name '*.cpp' -o -name '*.hpp' | sort); do
  for inc in $(includes "$f"); do
    case "$inc" in bench/*) violation "$f includes $inc (topology/ knows hwloc and sysfs only)" ;; esac
  done
done

# Which suite owns a path ("" for the core and shared code).
declare -A owner
while read -r name globs; do
  for g in $globs; do
    for f in $g; do [[ -e "$f" ]] && owner[$f]=$name; done
  done
done < <(suite_files)

for f in "${!owner[@]}"; do
  me=${owner[$f]}
  [[ "$f" == *.cpp || "$f" == *.hpp ]] || continue
  for inc in $(includes "$f"); do
    other=${owner[$inc]:-}
    [[ -n "$other" && "$other" != "$me" ]] || continue
    allowed "$me" "$inc" || violation "$f (suite $me) includes $inc (suite $other)"
  done
done

# Shared engines point down: an engine file that belongs to no suite includes nothing from bench/suites/.
for f in $(find $engine_dirs -name '*.cpp' -o -name '*.hpp' | sort); do
  [[ -z "${owner[$f]:-}" ]] || continue
  for inc in $(includes "$f"); do
    case "$inc" in bench/suites/*) violation "$f includes $inc (a shared engine includes from the suites above it)" ;; esac
  done
done

# The suite list is the one place that names every suite; nothing in the core declares a suite's run.
if grep -nE 'run_(topo|mpi|tcp|rdma|nccl|pcie|node)_suite' bench/*.hpp bench/*.cpp 2>/dev/null; then
  violation "the core names a suite's entry point; it belongs to the suite's own header"
fi

[[ $fail -eq 0 ]] && echo "layering: ok (${#owner[@]} suite files checked)"
exit $fail
