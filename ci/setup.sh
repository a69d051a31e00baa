#!/usr/bin/env bash
# Installs the Debian packages gpunet-bench needs to build, test and benchmark. Idempotent; root or sudo.
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config git
  # core libraries
  openmpi-bin libopenmpi-dev libhwloc-dev hwloc nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  # peer authentication (HMAC-SHA-256, random nonces): OpenSSL's libcrypto
  libssl-dev
  # the run history (--history): SQLite, an embedded file
  libsqlite3-dev
  # RDMA (compiled in when present; the suite skips without a device)
  libibverbs-dev ibverbs-providers rdma-core
  # network namespaces, shaping, reference tools
  iproute2 ethtool iperf3 sockperf procps python3
  # (other suites add their packages below)
  # report/: report.html in headless Chromium, report.json against its JSON Schema, benchmark timing
  chromium python3-jsonschema time
  # report/: metrics.prom checked with promtool
  prometheus
  # topo: NCCL topology XML reader
  libpugixml-dev
  # acceptance / launch: ssh and NUMA binding for launch/, a one-host Slurm cluster for tests/slurm
  numactl slurm-wlm slurm-wlm-basic-plugins munge openssh-client
  # rdma suite, and the nccl, pcie and node suites: host buffers on a chosen NUMA node
  libnuma-dev numactl
  # tcp suite and launch/fakecluster: nsenter, unshare (util-linux), ip, tc, ss, bridge (iproute2)
  util-linux
)

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
