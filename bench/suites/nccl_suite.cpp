// The `nccl` suite: NCCL collectives one GPU per rank, swept over sizes, timed with CUDA events,
// verified, with the transports NCCL chose, and (with --scaling) the scaling sweep.
#include "bench/suites/more_suites.hpp"
#include "bench/suites/node_local.hpp"
#include "gpunet/build_config.h"

#if GPUNET_HAVE_CUDA
#include "bench/gpu/nccl_run.hpp"
#endif

namespace gpunet::bench {

void run_nccl_suite(const SuiteContext& ctx) {
#if GPUNET_HAVE_CUDA
  gpu::run_nccl_suite_cuda(ctx);
#else
  if (ctx.mpi.is_root()) {
    auto r = skipped(ctx, "nccl", "collectives", "built without CUDA");
    r.ranks = ctx.mpi.size;
    ctx.emit(r);
  }
#endif
}

}  // namespace gpunet::bench
