// Helpers for suites that run on each node leader alone (pcie, node): the other ranks wait without
// spinning; records for what a leader skipped or failed. (Their timing is bench/core/measure's.)
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench/core/suite.hpp"

namespace gpunet::bench {

// Node leaders run `body`; then every rank meets at a barrier, waiting with short sleeps so idle
// ranks leave the CPUs to the measurement.
void on_node_leaders(const SuiteContext& ctx, const std::function<void()>& body);

// Waits for every rank of comm, sleeping between tests of a non-blocking barrier.
void idle_barrier(MPI_Comm comm);

// A record of suite/name on this rank, skipped with the reason.
report::Record skipped(const SuiteContext& ctx, const std::string& suite, const std::string& name, const std::string& reason);
// A record of suite/name on this rank, failed in `step` with the error `what` (named with the host).
report::Record failed_in(const SuiteContext& ctx, const std::string& suite, const std::string& name,
                         const std::string& step, const std::string& what);

}  // namespace gpunet::bench
