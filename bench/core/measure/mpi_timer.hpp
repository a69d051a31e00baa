// The timers of ranks that measure together over an MPI communicator: MPI_Barrier before a timed
// block, the estimate agreed as the maximum, and the samples reduced index by index as --reduce says
// (max: a batch ends when its slowest rank ends). The one cross-rank reduction of the harness.
#pragma once

#include <functional>
#include <vector>

#include <mpi.h>

#include "bench/core/config.hpp"
#include "bench/core/measure/measurement.hpp"

namespace gpunet::bench::measure {

inline constexpr double kWtimeCost_s = 3e-8;  // one MPI_Wtime reading

// Samples combined across the ranks of comm, index by index (collective over comm).
void reduce_across(MPI_Comm comm, Reduction how, std::vector<double>& samples);

// Makes `t` a timer of the ranks of comm: its barrier, agreement and reduction go over comm.
Timer over_ranks(Timer t, MPI_Comm comm, Reduction how);

// MPI_Wtime around batch(iters), which runs iters iterations in a loop of its own (so that an
// operation of a fraction of a microsecond is called as a bare loop calls it), over the ranks of comm.
Timer mpi_wtime_timer(MPI_Comm comm, Reduction how, const std::function<void(int iters)>& batch);

// The Rules of the Config: -w, -n, --max-iters, --budget.
Rules rules_of(const Config& cfg);

}  // namespace gpunet::bench::measure
