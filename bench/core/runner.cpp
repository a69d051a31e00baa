#include "bench/core/runner.hpp"

#include "bench/core/measure/mpi_timer.hpp"

namespace gpunet::bench {

measure::Timing Runner::time_op(const std::string& step, MPI_Comm comm, const std::function<void()>& op) const {
  return time_batch(step, comm, [&op](int iters) {
    for (int i = 0; i < iters; ++i) op();
  });
}

measure::Timing Runner::time_batch(const std::string& step, MPI_Comm comm, const std::function<void(int iters)>& batch) const {
  return measure::measure(control_, step, StepScope::all_ranks, measure::rules_of(cfg_),
                          measure::mpi_wtime_timer(comm, cfg_.reduction, batch));
}

}  // namespace gpunet::bench
