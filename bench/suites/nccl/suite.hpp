// The `nccl` suite: NCCL collectives, one GPU per rank (skipped with the reason where no GPU can be used).
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench {

Suite nccl_suite();

}  // namespace gpunet::bench
