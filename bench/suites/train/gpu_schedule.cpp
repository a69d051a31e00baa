// The GPU path's schedule (pure; compiled in every build) and, without CUDA, the path's stand-in.
#include <algorithm>
#include <cmath>

#include "bench/suites/train/gpu_step.hpp"
#include "gpunet/build_config.h"

namespace gpunet::bench {

std::vector<int> buckets_ready_after_gemm(const std::vector<double>& ready_s, double gemm_s, int gemms) {
  std::vector<int> out;
  for (double t : ready_s) {
    const double k = gemm_s > 0 ? std::ceil(t / gemm_s - 1e-9) : gemms;
    out.push_back(static_cast<int>(std::clamp(k, 1.0, static_cast<double>(std::max(1, gemms)))));
  }
  return out;
}

int gemms_for(double compute_s, double gemm_s) {
  if (!(gemm_s > 0) || !(compute_s > 0)) return 1;
  return std::max(1, static_cast<int>(std::lround(compute_s / gemm_s)));
}

#if !GPUNET_TRAIN_GPU
bool gpu_train_built() { return false; }
std::optional<GpuStepTimings> gpu_train_steps(const SuiteContext&, const StepPlan&, std::string& reason) {
  reason = "built without CUDA, NCCL and cuBLAS";
  return std::nullopt;
}
#endif

}  // namespace gpunet::bench
