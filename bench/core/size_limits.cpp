#include "bench/core/size_limits.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>

#include "bench/core/sizes.hpp"

namespace gpunet::bench {

namespace {

// Why `buffers` buffers of `bytes` each do not fit in `physical_bytes` ("" when they do).
std::string memory_problem(const std::string& option, int64_t bytes, int buffers, int64_t physical_bytes) {
  if (physical_bytes <= 0 || bytes <= physical_bytes / buffers) return "";
  return option + " " + format_size(bytes) + ": needs " + std::to_string(buffers) + " buffers of that size per rank, " +
         "more than this machine's " + format_size(physical_bytes) + " of memory (give at most " +
         format_size(physical_bytes / buffers) + ")";
}

// Why a message of `bytes` has more elements of `dtype` than an MPI count (an int) can say.
std::string count_problem(const std::string& option, int64_t bytes, const std::string& dtype) {
  const int64_t elem = std::max<int64_t>(dtype_size(dtype), 1);
  const int64_t most = static_cast<int64_t>(INT_MAX) * elem;
  if (bytes <= most) return "";
  return option + " " + format_size(bytes) + ": more " + dtype + " elements than an MPI count can hold (give at most " +
         std::to_string(most) + " bytes)";
}

}  // namespace

int64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0 || pages > LLONG_MAX / page) return 0;
  return static_cast<int64_t>(pages) * page;
}

std::string size_limit_problem(const Config& c, int64_t physical_bytes) {
  const size_t sizes = sweep_length(c.min_bytes, c.max_bytes, c.step_factor, c.step_bytes, kMaxSweepSizes);
  if (sizes > kMaxSweepSizes)
    return "-b/-e with " + std::string(c.step_bytes > 0 ? "-i" : "-f") + " give more than " +
           std::to_string(kMaxSweepSizes) + " sizes (raise -f or -i, or narrow -b..-e)";
  const int64_t scaling = c.scaling_bytes > 0 ? c.scaling_bytes : 0;
  for (const auto& why : {count_problem("-e/--maxbytes", c.max_bytes, c.dtype),
                          count_problem("--scaling-size", scaling, c.dtype),
                          memory_problem("-e/--maxbytes", c.max_bytes, 2, physical_bytes),
                          memory_problem("--scaling-size", scaling, 2, physical_bytes),
                          memory_problem("--node-size", c.node_bytes, 3, physical_bytes),
                          memory_problem("--pcie-size", c.pcie_bytes, 2, physical_bytes)})
    if (!why.empty()) return why;
  return "";
}

}  // namespace gpunet::bench
