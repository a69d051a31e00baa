// Drives the scaling sweep (see scaling.hpp) for a suite: a sub-communicator per group of whole
// nodes, one measurement per group, probes that name the node behind a drop, and a summary record
// with a finding.
#pragma once

#include <functional>
#include <string>

#include <mpi.h>

#include "bench/core/suite.hpp"
#include "bench/engines/scaling.hpp"
#include "report/model/record.hpp"

namespace gpunet::bench {

// Called on EVERY rank for each group. comm is the group's communicator, or MPI_COMM_NULL on ranks
// outside the group; those must enter the same steps as the group (idle_step does that) so the
// watchdog sees every rank in step. Returns busbw in GB/s on the group's ranks and fills rec (rank
// 0, always in the group, emits it); returns 0 elsewhere.
using ScalingMeasure = std::function<double(MPI_Comm comm, const ScalingGroup& g, report::Record& rec)>;

// suite: the records' suite; memory: where the buffers live ("host", "device"), a figure parameter;
// bytes: the all_reduce size.
void run_scaling(const SuiteContext& ctx, const std::string& suite, const std::string& memory, int64_t bytes,
                 const ScalingMeasure& measure);

// For ranks outside a group: enter and leave `step` at once.
void idle_step(const SuiteContext& ctx, const std::string& step);

// "fc-node3 (node 3)"; hosts come from the MPI context.
std::string describe_node(const MpiContext& mpi, int node);

}  // namespace gpunet::bench
