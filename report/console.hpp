// Console rendering of records as they arrive, in nccl-tests' column layout. Pure formatting.
#pragma once

#include <string>

#include "report/record.hpp"

namespace gpunet::report {

// Header for a sweep table (two comment lines, as nccl-tests prints them).
std::string console_sweep_header(const std::string& suite, int ranks, int nodes, const std::string& reduction);
// One row: size count type redop | time algbw busbw #wrong | p50 p99 cv% iters [status].
std::string console_sweep_row(const Record& r);
// One line for a record that is not a sweep row (skips, failures, other suites).
std::string console_note(const Record& r);

}  // namespace gpunet::report
