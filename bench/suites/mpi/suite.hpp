// The `mpi` suite: host-memory MPI collectives (allreduce, allgather, reduce_scatter, broadcast,
// alltoall) swept over sizes, then (with --scaling) MPI_Allreduce on 1, 2, 4, ... whole nodes.
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench {

Suite mpi_suite();

void run_mpi_suite(const SuiteContext& ctx);    // the collective sweeps (mpi_collectives.cpp)
void run_mpi_scaling(const SuiteContext& ctx);  // the scaling sweep (mpi_scaling.cpp)

}  // namespace gpunet::bench
