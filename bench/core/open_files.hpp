// The open-file limit at start. Rank 0 holds one control connection per rank (bench/core/control_channel)
// besides MPI's own descriptors and the output files, so a job of many ranks under a common soft limit
// of 1,024 (or a container's 40) would run out of descriptors while the ranks connect and fail after
// the connect timeout with a message that does not name the limit. Every rank raises its soft limit to
// the hard limit at start; rank 0 then checks, before anything waits, that what it got covers the ranks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpunet::bench {

// Descriptors rank 0 keeps beside the control connections: MPI's own, the listener, the output files,
// the console, the watchdog's eventfd, traffic counters.
inline constexpr uint64_t kOpenFilesMargin = 32;

// The descriptors rank 0 needs for a job of `ranks` ranks (pure).
uint64_t open_files_needed(int ranks);

// The soft and hard limits; "unlimited" is UINT64_MAX.
struct OpenFileLimit {
  uint64_t soft = 0;
  uint64_t hard = 0;
};

// One line naming the limit and what to do when `limit` does not cover `ranks` ranks, else nothing (pure).
std::optional<std::string> open_file_limit_problem(const OpenFileLimit& limit, int ranks);

// Raises this process's soft RLIMIT_NOFILE to its hard limit and returns the limits it then has.
OpenFileLimit raise_open_file_limit();

}  // namespace gpunet::bench
