// A record must never say `passed` for a figure that was not measured: a timed record (an MPI or
// NCCL collective, a TCP latency) with no samples is turned into a failed one with the reason.
#pragma once

#include "report/record.hpp"

namespace gpunet::bench {

// Whether r's figure comes from timed samples (so that zero samples means nothing was measured).
bool is_timed_record(const report::Record& r);

// r, failed with a reason when it is passed and timed but holds no samples; else r unchanged.
report::Record fail_if_unmeasured(report::Record r);

}  // namespace gpunet::bench
