#!/usr/bin/env bash
# The test command: installs what is missing (with the test tools), builds with warnings as errors and
# the tests forced on, runs every test.
#   ci/test.sh            default configuration (CUDA/NCCL and ibverbs when present), all tests
#   ci/test.sh --all      also a build without CUDA under AddressSanitizer + UBSan (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh --tests

build_config() {  # BUILD_DIR CMAKE_ARGS...
  local dir=$1; shift
  echo "=== configuration: $dir $*"
  bash ci/build.sh "$dir" -DGPUNET_WERROR=ON -DGPUNET_BUILD_TESTS=ON "$@"
}
# -j2: GoogleTest cases two at a time; every mpirun, namespace or browser test runs alone (RUN_SERIAL,
# tests/CMakeLists.txt), so none of them meets another test's load.
run_tests() {  # BUILD_DIR CTEST_ARGS...
  local dir=$1; shift
  ctest --test-dir "$dir" --output-on-failure -j2 --timeout 300 "$@"
}

build_config build   # the same build directory as launch/quickstart
run_tests build
if [[ ${1:-} == --all ]]; then
  # The second configuration is both the build without CUDA and the sanitizer run.
  # Debug at -g1: sanitizer reports keep file and line, the build is faster than with -g.
  # Open MPI keeps allocations until exit by design; leak reports would be noise, the rest is checked.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  build_config build-nocuda-sanitize -DGPUNET_SANITIZE=ON -DGPUNET_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1
  # The fake-cluster scenarios run the same code as the default configuration's; under the sanitizers
  # two of them stand for the rest: the contract/baseline/culprit runs and the dead link.
  run_tests build-nocuda-sanitize -LE fakecluster
  run_tests build-nocuda-sanitize -R '^fakecluster_(verdicts|tcp_link_down)$'
fi
