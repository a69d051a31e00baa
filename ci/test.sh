#!/usr/bin/env bash
# The test command: installs what is missing (with the test tools), builds with warnings as errors and
# the tests forced on, runs every test.
#   ci/test.sh            default configuration (CUDA/NCCL and ibverbs when present), all tests
#   ci/test.sh --all      also a build without CUDA under AddressSanitizer + UBSan (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh --tests

run_config() {  # BUILD_DIR CMAKE_ARGS...
  local dir=$1; shift
  echo "=== configuration: $dir $*"
  bash ci/build.sh "$dir" -DGPUNET_WERROR=ON -DGPUNET_BUILD_TESTS=ON "$@"
  ctest --test-dir "$dir" --output-on-failure -j1 --timeout 300
}

run_config build   # the same build directory as launch/quickstart
if [[ ${1:-} == --all ]]; then
  # The second configuration is both the build without CUDA and the sanitizer run.
  # Debug at -g1: sanitizer reports keep file and line, the build is faster than with -g.
  # Open MPI keeps allocations until exit by design; leak reports would be noise, the rest is checked.
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_config build-nocuda-sanitize -DGPUNET_SANITIZE=ON -DGPUNET_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1
fi
