#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as errors, runs every test.
#   ci/test.sh            default configuration (CUDA/NCCL and ibverbs when present), all tests
#   ci/test.sh --all      also a build without CUDA under AddressSanitizer + UBSan (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh

run_config() {  # NAME CMAKE_ARGS...
  local name=$1; shift
  echo "=== configuration: $name"
  bash ci/build.sh "build-$name" -DGPUNET_WERROR=ON "$@"
  ctest --test-dir "build-$name" --output-on-failure -j1 --timeout 300
}

run_config default
if [[ ${1:-} == --all ]]; then
  # The second configuration is both the build without CUDA and the sanitizer run.
  # Open MPI keeps allocations until exit by design; leak reports would be noise, the rest is checked.
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_config nocuda-sanitize -DGPUNET_SANITIZE=ON -DGPUNET_WITH_CUDA=OFF
fi
