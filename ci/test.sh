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
  echo "=== configuration: $dir $* (at ${SECONDS} s)"
  bash ci/build.sh "$dir" -DGPUNET_WERROR=ON -DGPUNET_BUILD_TESTS=ON "$@"
  echo "=== built $dir (at ${SECONDS} s)"
}
# -j2: GoogleTest cases two at a time; every mpirun, namespace or browser test runs alone (RUN_SERIAL,
# tests/CMakeLists.txt), so none of them meets another test's load.
run_tests() {  # BUILD_DIR CTEST_ARGS...
  local dir=$1; shift
  ctest --test-dir "$dir" --output-on-failure -j2 --timeout 300 "$@"
  echo "=== tested $dir (at ${SECONDS} s)"
}

build_config build   # the same build directory as launch/quickstart
# The command-line fuzz takes 100 mutations here and its full 250 in the sanitizer configuration.
GPUNET_FUZZ_CASES=100 run_tests build
if [[ ${1:-} == --all ]]; then
  # The second configuration is both the build without CUDA and the sanitizer run.
  # Debug at -g1: sanitizer reports keep file and line, the build is faster than with -g.
  # Open MPI keeps allocations until exit by design; leak reports would be noise, the rest is checked.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  build_config build-nocuda-sanitize -DGPUNET_SANITIZE=ON -DGPUNET_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1
  # Under the sanitizers, every test but those that exercise more than this program's code: the
  # fake-cluster scenarios (namespaces and tc around the same code the default configuration runs, 90 s
  # here), the package, the one-host Slurm cluster, the browsers, launch/gpunet-run and ci/nightly.sh,
  # the live console, the 24-rank start-up, the include-layering scripts, and the fault variants whose
  # twin stays (what CI time allows: docs/testing.md).
  run_tests build-nocuda-sanitize -LE 'fakecluster|package' \
    -E '^(slurm_one_host|report_html_chromium|report_browser_fixture|accept_gpunet_run|accept_nightly|live_console|startup_open_files|two_runs_one_output|layering_.*|fault_killed_rank_np2|fault_killed_rank0_np2|fault_stopped_rank0_np2|fault_stopped_rank_np4|fault_stopped_resumed_rank0_np4|fault_killed_rank_gpunet_run)$'
fi
