// The `pcie` suite: host<->device copies per GPU and all GPUs of a node at once (node leaders;
// skipped without a GPU).
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench {

Suite pcie_suite();

}  // namespace gpunet::bench
