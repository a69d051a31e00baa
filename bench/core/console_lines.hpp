// What rank 0 prints for a record as it arrives: sweep rows for collectives (mpi, nccl; scaling
// points and in-place runs named in the last column), one line for copies and micro-benchmarks,
// the interfaces that carried a suite's traffic, and a line per finding. Pure formatting.
#pragma once

#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::bench {

std::string console_line(const report::Record& r);
// "# finding (warning): ..." for each of the record's extra.findings; "" when none.
std::string console_line_findings(const report::Record& r);
// A sweep suite's line (mpi, nccl): a measured collective as a row under its nccl-tests header, in-place
// runs and scaling points named in the last column; any other record as console_line.
std::string sweep_console_line(const report::Record& r);
// A copy or micro-benchmark (pcie, node): "# pcie h2d gpu0: 25.10 GB/s (...)"; else console_line.
std::string copy_console_line(const report::Record& r);
// nccl-tests' footer after a sweep suite (Suite::sweeps): report::collective_footer over the suite's
// measured sweep rows, then "#"; "" when none was measured.
//   # Out of bounds values : 0 OK
//   # Avg bus bandwidth    : 12.3456
std::string sweep_footer(const std::vector<report::Record>& records, const std::string& suite);

}  // namespace gpunet::bench
