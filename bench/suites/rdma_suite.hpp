// The `rdma` suite: RDMA WRITE bandwidth and latency between rank pairs over libibverbs (bench/rdma,
// bench/suites/rdma.cpp).
#pragma once

#include "bench/suite.hpp"

namespace gpunet::bench {

Suite rdma_suite();

void run_rdma_suite(const SuiteContext& ctx);

}  // namespace gpunet::bench
