// The `rdma` suite: RDMA WRITE bandwidth and latency between rank pairs over libibverbs (bench/suites/rdma,
// bench/suites/rdma/suite.cpp).
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench {

Suite rdma_suite();

void run_rdma_suite(const SuiteContext& ctx);

}  // namespace gpunet::bench
