// The `nccl` suite: NCCL collectives, one GPU per rank (skipped with the reason where no GPU can be used).
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench {

Suite nccl_suite();

// Its plan: each collective at each size, out of place and (where it has one) in place, about
// --budget of timed iterations each. NCCL's start-up and, with -c 1, filling and checking the
// buffers on the host are left out: they grow with the size (on one H200, a sweep of 7 collectives
// from 8 KiB to 128 MiB at 0.05 s a point took 32 s, its 96 points 4.8 s of it).
PlanPart nccl_plan(const Config& c, int nodes, int ranks);

}  // namespace gpunet::bench
