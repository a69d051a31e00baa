#!/usr/bin/env bash
# Installs the Debian packages gpunet-bench needs to build, test and benchmark. Idempotent; root or sudo.
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config git
  # core libraries
  openmpi-bin libopenmpi-dev libhwloc-dev hwloc nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  # RDMA (compiled in when present; the suite skips without a device)
  libibverbs-dev ibverbs-providers rdma-core
  # network namespaces, shaping, reference tools
  iproute2 ethtool iperf3 sockperf procps python3
  # (other suites add their packages below)
  # nccl, pcie and node suites (issue #8): NUMA placement of host buffers
  libnuma-dev numactl
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
