// What rank 0 prints for a record as it arrives: sweep rows for collectives (mpi, nccl; scaling
// points and in-place runs named in the last column), one line for copies and micro-benchmarks,
// the interfaces that carried a suite's traffic, and a line per finding. Pure formatting.
#pragma once

#include <string>
#include <vector>

#include "report/record.hpp"

namespace gpunet::bench {

bool prints_sweep_header(const std::string& suite);  // mpi, nccl
std::string console_line(const report::Record& r);
// nccl-tests' footer after a sweep suite (mpi, nccl): the wrong values found by the data checks and
// the mean busbw over every measured sweep row of `suite`; "" when none was measured.
//   # Out of bounds values : 0 OK
//   # Avg bus bandwidth    : 12.3456 GB/s
std::string sweep_footer(const std::vector<report::Record>& records, const std::string& suite);

}  // namespace gpunet::bench
