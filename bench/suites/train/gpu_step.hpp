// The train suite's GPU path: the compute phase is a chain of real GEMMs through cuBLAS on one CUDA
// stream, the bucketed all-reduce is NCCL on its own stream, each bucket started (through a CUDA
// event) as soon as the GEMM after which it is "ready" has run, and NVML samples the GPU's
// utilisation during the overlapped steps. This header needs no CUDA: a build without CUDA, NCCL or
// cuBLAS compiles the suite without the GPU path, and the suite then says so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/core/measure/measurement.hpp"
#include "bench/core/suite.hpp"
#include "bench/suites/train/step.hpp"

namespace gpunet::bench {

// One NVML reading of this rank's GPU: seconds since the overlapped steps began, utilisation in %
// (NVML's "percent of time a kernel ran" over its own sample period, 1/6 s to 1 s by GPU).
struct UtilisationPoint {
  double t_s = 0;
  double util_pct = 0;
};

struct GpuStepTimings {
  measure::Timing compute, comm, step;  // GEMMs alone, NCCL buckets alone, overlapped step
  int device = 0;
  std::string gpu_name;
  int gemm_n = 0;          // square bf16 GEMM of gemm_n × gemm_n
  int gemms = 0;           // per step
  double gemm_s = 0;       // one GEMM, calibrated with CUDA events
  int64_t wrong = 0;       // gradient elements wrong after the overlapped steps, all ranks
  std::vector<UtilisationPoint> utilisation;  // rank 0's GPU during the overlapped steps
  std::string utilisation_note;               // why there is no timeline, when there is none
};

// Whether this binary has the GPU path (CUDA + NCCL + cuBLAS found at build time).
bool gpu_train_built();
// Runs the GPU path on every rank (one GPU per rank: the local rank's). nullopt with `reason` (the
// same on every rank) when no GPU can be used. Collective over ctx.mpi.world.
std::optional<GpuStepTimings> gpu_train_steps(const SuiteContext& ctx, const StepPlan& p, std::string& reason);

// Pure: after which GEMM (1-based, of `gemms` per step, each `gemm_s` long) each bucket is ready:
// ceil(t_i / gemm_s) with the bucket's ready time t_i (bucket_ready_s), clamped to [1, gemms].
std::vector<int> buckets_ready_after_gemm(const std::vector<double>& ready_s, double gemm_s, int gemms);
// Pure: GEMMs per step for `compute_s` of compute: round(compute_s / gemm_s), at least 1.
int gemms_for(double compute_s, double gemm_s);

}  // namespace gpunet::bench
