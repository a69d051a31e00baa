// The `pcie` suite: host<->device copies per GPU and all GPUs of a node at once (node leaders;
// skipped without a GPU).
#pragma once

#include "bench/core/suite.hpp"
#include "bench/engines/cuda_device.hpp"
#include "report/model/figure.hpp"

namespace gpunet::bench {

Suite pcie_suite();

// The path one GPU's copy is judged against. A pinned copy's is the GPU's PCIe link. A pageable
// copy goes through the driver's pinned staging buffer, so the host's own memory copy bounds it,
// not the link: it is measured and shown, and judged against no ceiling (on an H200 pageable H2D
// and D2H ran at 8.5 and 16.4 GB/s beside 55.3 pinned, and the link's ceiling turned a healthy
// node's verdict into WARN with "no cause found").
report::PathModel copy_path(gpu::HostKind kind);

}  // namespace gpunet::bench
