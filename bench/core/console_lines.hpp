// What rank 0 prints for a record as it arrives: sweep rows for collectives (mpi, nccl; scaling
// points and in-place runs named in the last column), one line for copies and micro-benchmarks,
// the interfaces that carried a suite's traffic, and a line per finding. Pure formatting.
#pragma once

#include <string>

#include "report/record.hpp"

namespace gpunet::bench {

bool prints_sweep_header(const std::string& suite);  // mpi, nccl
std::string console_line(const report::Record& r);

}  // namespace gpunet::bench
