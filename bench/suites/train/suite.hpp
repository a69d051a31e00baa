// The train suite: data-parallel step emulation (compute overlapped with the bucketed all-reduce),
// measured beside the fixed overlap model's prediction. Opt-in: `--suites ...,train`.
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench {

Suite train_suite();

}  // namespace gpunet::bench
