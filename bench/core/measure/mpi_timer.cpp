#include "bench/core/measure/mpi_timer.hpp"

namespace gpunet::bench::measure {

void reduce_across(MPI_Comm comm, Reduction how, std::vector<double>& samples) {
  const MPI_Op op = how == Reduction::max ? MPI_MAX : how == Reduction::min ? MPI_MIN : MPI_SUM;
  MPI_Allreduce(MPI_IN_PLACE, samples.data(), static_cast<int>(samples.size()), MPI_DOUBLE, op, comm);
  if (how != Reduction::mean) return;
  int n = 1;
  MPI_Comm_size(comm, &n);
  for (double& s : samples) s /= n;
}

Timer over_ranks(Timer t, MPI_Comm comm, Reduction how) {
  t.barrier = [comm] { MPI_Barrier(comm); };
  t.agree_max = [comm](double x) {
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, comm);
    return x;
  };
  t.reduce = [comm, how](std::vector<double>& s) { reduce_across(comm, how, s); };
  return t;
}

Timer mpi_wtime_timer(MPI_Comm comm, Reduction how, const std::function<void(int iters)>& batch) {
  Timer t;
  t.clock = "MPI_Wtime";
  t.clock_cost_s = kWtimeCost_s;
  t.batch_s = [batch](int iters) {
    const double t0 = MPI_Wtime();
    batch(iters);
    return MPI_Wtime() - t0;
  };
  return over_ranks(std::move(t), comm, how);
}

Rules rules_of(const Config& cfg) {
  Rules r;
  r.warmup_iters = cfg.warmup_iters;
  r.budget = {cfg.iters, cfg.max_iters, cfg.budget_s};
  return r;
}

}  // namespace gpunet::bench::measure
