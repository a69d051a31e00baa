// The runner times one operation on every rank of a communicator with the measurement layer
// (bench/core/measure): MPI_Wtime around batches of iterations, the samples reduced across ranks as
// --reduce says (max by default). Suites supply one operation.
#pragma once

#include <functional>
#include <string>

#include <mpi.h>

#include "bench/core/config.hpp"
#include "bench/core/control.hpp"
#include "bench/core/measure/measurement.hpp"

namespace gpunet::bench {

class Runner {
 public:
  Runner(const Config& cfg, ControlPlane& control) : cfg_(cfg), control_(control) {}

  // Runs `op` on every rank of `comm` as step `step`; returns the batch samples (mean time per
  // iteration in us of each batch), reduced across the ranks of comm. Collective over comm.
  measure::Timing time_op(const std::string& step, MPI_Comm comm, const std::function<void()>& op) const;

  // The same for an operation that runs a batch itself: batch(iters) runs iters iterations in a
  // loop of its own, as a bare loop would (for operations of a fraction of a microsecond).
  measure::Timing time_batch(const std::string& step, MPI_Comm comm, const std::function<void(int iters)>& batch) const;

 private:
  const Config& cfg_;
  ControlPlane& control_;
};

}  // namespace gpunet::bench
