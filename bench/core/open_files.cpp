#include "bench/core/open_files.hpp"

#include <sys/resource.h>

#include <algorithm>

namespace gpunet::bench {

namespace {

uint64_t from_rlim(rlim_t v) { return v == RLIM_INFINITY ? UINT64_MAX : static_cast<uint64_t>(v); }

}  // namespace

uint64_t open_files_needed(int ranks) { return static_cast<uint64_t>(std::max(ranks, 0)) + kOpenFilesMargin; }

std::optional<std::string> open_file_limit_problem(const OpenFileLimit& limit, int ranks) {
  const uint64_t need = open_files_needed(ranks);
  if (limit.soft >= need) return std::nullopt;
  // A suggestion with room to grow: the next power of two at or above 4,096 that covers the need.
  uint64_t suggest = 4096;
  while (suggest < need) suggest *= 2;
  return "open-file limit " + std::to_string(limit.soft) + " is below the " + std::to_string(ranks) +
         " ranks' control connections + " + std::to_string(kOpenFilesMargin) + ": raise it (ulimit -n " + std::to_string(suggest) +
         " before mpirun; the hard limit is " + (limit.hard == UINT64_MAX ? std::string("unlimited") : std::to_string(limit.hard)) + ")";
}

OpenFileLimit raise_open_file_limit() {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0) return {UINT64_MAX, UINT64_MAX};  // unknown: assume enough
  if (rl.rlim_cur != rl.rlim_max) {
    rlimit raised = rl;
    raised.rlim_cur = rl.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) rl = raised;
  }
  return {from_rlim(rl.rlim_cur), from_rlim(rl.rlim_max)};
}

}  // namespace gpunet::bench
