#!/usr/bin/env bash
# Installs the Debian packages gpunet-bench needs. Idempotent; root or sudo.
#   ci/setup.sh            what building and running the program needs (launch/quickstart)
#   ci/setup.sh --tests    also the test tools (ci/test.sh): GoogleTest, a browser, promtool, Slurm, ...
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config git
  # core libraries; Google Benchmark drives the node suite's memory loops
  openmpi-bin libopenmpi-dev libhwloc-dev hwloc nlohmann-json3-dev libcli11-dev libfmt-dev libbenchmark-dev
  # peer authentication (HMAC-SHA-256, random nonces): OpenSSL's libcrypto
  libssl-dev
  # the run history (--history): SQLite, an embedded file; zlib deflates each run's baseline in it
  libsqlite3-dev zlib1g-dev
  # RDMA (compiled in when present; the suite skips without a device)
  libibverbs-dev ibverbs-providers rdma-core
  # report/: simdjson reads the lines of a large results.jsonl
  libsimdjson-dev
  # topo: NCCL topology XML reader
  libpugixml-dev
  # rdma suite, and the nccl, pcie and node suites: host buffers on a chosen NUMA node; gpunet-bind
  libnuma-dev numactl
  # launch/gpunet-run (ssh) and launch/fakecluster (ip, tc, bridge from iproute2; nsenter, unshare)
  iproute2 util-linux openssh-client
  # the Debian package (--target package): dpkg-shlibdeps computes its dependencies, file finds the ELF files
  dpkg-dev file
)
test_packages=(
  # unit tests
  libgtest-dev libgmock-dev googletest
  # reference tools the benchmarks compare with, link queries, python and ps/pgrep for the test scripts
  ethtool iperf3 sockperf python3 procps
  # report/: report.html in headless Chromium, report.json against its JSON Schema, benchmark timing
  chromium python3-jsonschema time
  # report/: metrics.prom checked with promtool
  prometheus
  # a one-host Slurm cluster for tests/slurm
  slurm-wlm slurm-wlm-basic-plugins munge
)
case ${1:-} in
  "") ;;
  --tests) packages+=("${test_packages[@]}") ;;
  *) echo "ci/setup.sh: error: unknown option '$1' (use no option, or --tests for the test tools)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO=sudo
  echo "ci/setup.sh: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
