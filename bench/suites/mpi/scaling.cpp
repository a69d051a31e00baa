// The scaling sweep of the mpi suite: MPI_Allreduce (float, sum) on sub-communicators of 1, 2, 4, ...
// whole nodes, timed by the Runner and verified. Works on CPU-only clusters.
#include <vector>

#include "bench/suites/mpi/suite.hpp"
#include "bench/engines/patterns.hpp"
#include "bench/engines/scaling_run.hpp"
#include "report/model/busbw.hpp"

namespace gpunet::bench {

namespace {

using report::Collective;

double measure_allreduce(const SuiteContext& ctx, int64_t bytes, MPI_Comm comm, const ScalingGroup& g, report::Record& rec) {
  const std::string step = "mpi scaling allreduce " + std::to_string(g.nodes.size()) + " nodes" + (g.probe ? " probe" : "");
  if (comm == MPI_COMM_NULL) {
    idle_step(ctx, step);
    if (ctx.cfg.check) idle_step(ctx, step + " verify");
    return 0;
  }
  int n = 1, r = 0;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &r);
  const int64_t count = bytes / static_cast<int64_t>(sizeof(float));
  std::vector<float> send(static_cast<size_t>(count)), recv(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) send[static_cast<size_t>(i)] = static_cast<float>(patterns::input(r, i));
  auto run = [&, c = static_cast<int>(count)](int iters) {
    for (int i = 0; i < iters; ++i) MPI_Allreduce(send.data(), recv.data(), c, MPI_FLOAT, MPI_SUM, comm);
  };
  const auto timing = ctx.runner.time_batch(step, comm, run);
  rec.dtype = "float";
  rec.op = "sum";
  rec.count = count;
  rec.bytes = count * static_cast<int64_t>(sizeof(float));
  measure::record_timing(rec, timing);
  rec.algbw_GBps = report::algbw_GBps(rec.bytes, rec.time_us.mean * 1e-6);
  rec.busbw_GBps = report::busbw_GBps(Collective::allreduce, rec.bytes, rec.time_us.mean * 1e-6, n);
  rec.extra["reduction"] = to_string(ctx.cfg.reduction);
  if (ctx.cfg.check) {
    Step verify(ctx.control, step + " verify");
    std::fill(recv.begin(), recv.end(), -7.0f);
    run(1);
    int64_t wrong = 0;
    for (int64_t i = 0; i < count; ++i)
      wrong += static_cast<double>(recv[static_cast<size_t>(i)]) != patterns::reduced("sum", n, i);
    MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT64_T, MPI_SUM, comm);
    rec.wrong = wrong;
    rec.check = wrong == 0 ? "ok" : "wrong";
    if (wrong) {
      rec.status = report::Status::failed;
      rec.reason = std::to_string(wrong) + " wrong elements after allreduce";
    }
  }
  return rec.busbw_GBps;
}

}  // namespace

void run_mpi_scaling(const SuiteContext& ctx) {
  const int64_t bytes = ctx.cfg.scaling_bytes > 0 ? ctx.cfg.scaling_bytes : ctx.cfg.max_bytes;
  run_scaling(ctx, "mpi", "host", bytes, [&](MPI_Comm comm, const ScalingGroup& g, report::Record& rec) {
    return measure_allreduce(ctx, bytes, comm, g, rec);
  });
}


}  // namespace gpunet::bench
