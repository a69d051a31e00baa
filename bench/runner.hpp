// The runner owns the measurement loop: a barrier before each timed block, warm-up excluded,
// an iteration count that adapts to a per-size time budget (never below -n), per-iteration
// samples, and the reduction of samples across ranks (max by default). Suites supply one operation.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <mpi.h>

#include "bench/config.hpp"
#include "bench/control.hpp"

namespace gpunet::bench {

// Iterations for a per-iteration estimate: ceil(budget / estimate), clamped to [min_iters, max_iters].
int adaptive_iterations(double estimate_s, double budget_s, int min_iters, int max_iters);

class Runner {
 public:
  Runner(const Config& cfg, ControlPlane& control) : cfg_(cfg), control_(control) {}

  // Runs `op` on every rank of `comm` as step `step`; returns the per-iteration times in us,
  // reduced across the ranks of comm as the Config says. Collective over comm.
  std::vector<double> time_op(const std::string& step, MPI_Comm comm, const std::function<void()>& op) const;

 private:
  const Config& cfg_;
  ControlPlane& control_;
};

}  // namespace gpunet::bench
