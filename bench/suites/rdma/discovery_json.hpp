// The device and port enumeration as JSON for the report (extra.devices of the rdma "devices"
// record): per device its PCI function, NUMA node and PCIe link; per port state, link layer, MTUs,
// speed x width and the GID table with types and interfaces.
#pragma once

#include <string>

#include "common/json.hpp"

#include "bench/suites/rdma/engine.hpp"

namespace gpunet::bench::rdma {

gpunet::json discovery_json(const Discovery& d, const std::string& sys_root);

}  // namespace gpunet::bench::rdma
