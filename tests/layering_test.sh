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
topo   bench/suites/topo/*
mpi    bench/suites/mpi/*
tcp    bench/suites/tcp/*
rdma   bench/suites/rdma/*
nccl   bench/suites/nccl/*
pcie   bench/suites/pcie/*
node   bench/suites/node/*
train  bench/suites/train/*
EOF
}
# Not in any set: bench/engines/ (shared by several suites: leader-only runs, collective patterns,
# scaling sweeps, CUDA devices, PCIe links, NUMA), bench/core/, and the list bench/suites/suite_list.*.
# The engines include nothing from bench/suites/.
engine_dirs="bench/engines"

# Headers a suite may include from another suite's files: engines shared on purpose.
#   rdma uses the tcp suite's pair scheduler.
allowed() {
  case "$1 $2" in
    "rdma bench/suites/tcp/schedule.hpp") return 0 ;;
    "train bench/suites/nccl/nccl_comm.hpp") return 0 ;;  # the GPU step reuses the bounded NCCL communicator
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
if grep -nE 'run_(topo|mpi|tcp|rdma|nccl|pcie|node|train)_suite' bench/core/*.hpp bench/core/*.cpp bench/engines/* 2>/dev/null; then
  violation "the core names a suite's entry point; it belongs to the suite's own header"
fi

[[ $fail -eq 0 ]] && echo "layering: ok (${#owner[@]} suite files checked)"
exit $fail
