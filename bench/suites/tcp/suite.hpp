// The tcp suite under mpirun: neighbour pairs, the all-pairs link matrix (N−1 rounds of disjoint
// pairs, suspects re-tested alone), one-to-many, many-to-one (incast) and ping-pong latency.
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench::tcp {

void run_tcp_suite(const SuiteContext& ctx);

// The suite's entry in the suite list: options, run, console line (suite_entry.cpp).
Suite tcp_suite();

}  // namespace gpunet::bench::tcp
