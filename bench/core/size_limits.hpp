// Upper bounds on what a run allocates, checked while the options are parsed so that a size that
// cannot be allocated is a usage error (exit code 2) before any MPI work, never an abort mid-run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "bench/core/config.hpp"

namespace gpunet::bench {

inline constexpr size_t kMaxSweepSizes = 10000;  // sizes one sweep (-b, -e, -f or -i) may have

// This machine's physical memory in bytes; 0 when it cannot be told.
int64_t physical_memory_bytes();

// "" when every size in `c` fits a machine with `physical_bytes` of memory (0 = unknown: memory is not
// checked) and every MPI count fits an int; else one line that names the option and what to do.
std::string size_limit_problem(const Config& c, int64_t physical_bytes);

}  // namespace gpunet::bench
