// The `node` suite: node-local micro-benchmarks with Google Benchmark: host memory bandwidth per NUMA
// node, and PCIe copies where a GPU is present (node leaders).
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench {

Suite node_suite();

}  // namespace gpunet::bench
