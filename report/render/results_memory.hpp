// Whether the records of a results file can be held in the memory this process may still take. A
// report.json or results.jsonl is read whole into records before it is analysed (`gpunet-bench
// report`, and rank 0 at a run's end); its records take about as much memory as the file (2.2 GB for
// the 2.2 GB results.jsonl of 1,024 hosts), never less than half of it (the fullest records measured
// take 0.99 times their file, the leanest 1.45). A file whose half does not fit is refused with one
// line before reading starts, rather than the process being killed for memory with nothing said.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpunet::report {

struct MemoryRoom {
  std::uint64_t bytes = 0;  // what this process may still take
  std::string from;         // where that comes from, for the refusal's words
};

// A cgroup's memory limit and what it is charged with: its usage holds the page cache of the files it
// read, which the kernel gives back before it kills for memory.
struct CgroupMemory {
  std::uint64_t limit = 0, usage = 0, file = 0;
};

// The room that /proc/meminfo's text gives (MemAvailable and SwapFree) and, where a cgroup's memory
// limit is smaller, what that limit leaves above its usage but its page cache. nullopt where meminfo
// does not say. Pure.
std::optional<MemoryRoom> memory_room_of(std::string_view meminfo, const std::optional<CgroupMemory>& cgroup);

// memory_room_of this machine's /proc/meminfo and this process's cgroup (v2 memory.max, memory.current
// and memory.stat's file; v1 memory.limit_in_bytes, memory.usage_in_bytes and memory.stat's total_cache).
std::optional<MemoryRoom> memory_room();

// The line that refuses `path`, a results file of `file_bytes`, when half of it is more than `room`;
// nullopt when it may fit. Pure.
std::optional<std::string> results_beyond_memory(const std::string& path, std::uint64_t file_bytes, const MemoryRoom& room);
// The same against this process's memory_room(); nullopt where that cannot be read. What both readers
// of a results file (load_results, and rank 0's read_own_results_jsonl) ask before they read.
std::optional<std::string> results_beyond_memory(const std::string& path, std::uint64_t file_bytes);

}  // namespace gpunet::report
