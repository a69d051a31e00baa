#include "bench/runner.hpp"

#include <algorithm>
#include <cmath>

namespace gpunet::bench {

int adaptive_iterations(double estimate_s, double budget_s, int min_iters, int max_iters) {
  if (estimate_s <= 0) return max_iters;
  const double want = std::ceil(budget_s / estimate_s);
  return static_cast<int>(std::clamp(want, static_cast<double>(min_iters), static_cast<double>(std::max(min_iters, max_iters))));
}

std::vector<double> Runner::time_op(const std::string& step, MPI_Comm comm, const std::function<void()>& op) const {
  Step guard(control_, step);
  for (int i = 0; i < cfg_.warmup_iters; ++i) op();

  // One timed iteration estimates the cost; every rank uses the slowest estimate, so all agree.
  MPI_Barrier(comm);
  double t0 = MPI_Wtime();
  op();
  double estimate = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &estimate, 1, MPI_DOUBLE, MPI_MAX, comm);
  const int iters = adaptive_iterations(estimate, cfg_.budget_s, cfg_.iters, cfg_.max_iters);

  std::vector<double> samples(static_cast<size_t>(iters));
  MPI_Barrier(comm);
  for (double& s : samples) {
    t0 = MPI_Wtime();
    op();
    s = (MPI_Wtime() - t0) * 1e6;
  }
  const MPI_Op mpi_op = cfg_.reduction == Reduction::max ? MPI_MAX : cfg_.reduction == Reduction::min ? MPI_MIN : MPI_SUM;
  MPI_Allreduce(MPI_IN_PLACE, samples.data(), iters, MPI_DOUBLE, mpi_op, comm);
  if (cfg_.reduction == Reduction::mean) {
    int n = 1;
    MPI_Comm_size(comm, &n);
    for (double& s : samples) s /= n;
  }
  return samples;
}

}  // namespace gpunet::bench
