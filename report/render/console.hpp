// Console rendering of records as they arrive, in nccl-tests' column layout, and the summary table at
// the end of a run. Pure formatting.
#pragma once

#include <string>

#include "report/model/record.hpp"

namespace gpunet::report {

// Header for a sweep table (two comment lines, as nccl-tests prints them).
std::string console_sweep_header(const std::string& suite, int ranks, int nodes, const std::string& reduction);
// One row: size count type redop | time algbw busbw #wrong | p50 p99 cv% iters [status].
std::string console_sweep_row(const Record& r);
// One line for a record that is not a sweep row (skips, failures, other suites).
std::string console_note(const Record& r);
// At the end of a run: the summary table of report.md (headline figures with ceiling and
// efficiency, by path), rendered from the same table model. Empty when it has no rows.
std::string console_summary(const Report& rep);

}  // namespace gpunet::report
