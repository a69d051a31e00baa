// The nccl suite's body in CUDA builds (bench/suites/nccl/nccl_run.cpp, compiled only with CUDA and NCCL).
// bench/suites/nccl/suite.cpp calls it, or reports the suite skipped in a build without CUDA.
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench::gpu {

void run_nccl_suite_cuda(const SuiteContext& ctx);

}  // namespace gpunet::bench::gpu
