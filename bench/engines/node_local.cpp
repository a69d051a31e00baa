#include "bench/engines/node_local.hpp"

#include <chrono>
#include <thread>

namespace gpunet::bench {

void idle_barrier(MPI_Comm comm) {
  MPI_Request req;
  MPI_Ibarrier(comm, &req);
  for (int done = 0;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void on_node_leaders(const SuiteContext& ctx, const std::function<void()>& body) {
  if (ctx.mpi.local_rank == 0) body();
  idle_barrier(ctx.mpi.world);
}

report::Record skipped(const SuiteContext& ctx, const std::string& suite, const std::string& name, const std::string& reason) {
  auto r = ctx.record(suite, name);
  r.ranks = 1;
  r.status = report::Status::skipped;
  r.reason = reason;
  return r;
}

report::Record failed_in(const SuiteContext& ctx, const std::string& suite, const std::string& name,
                         const std::string& step, const std::string& what) {
  auto r = ctx.record(suite, name);
  r.ranks = 1;
  r.status = report::Status::failed;
  r.reason = step + " on " + ctx.mpi.host + ": " + what;
  return r;
}

}  // namespace gpunet::bench
