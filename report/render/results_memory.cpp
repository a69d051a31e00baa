#include "report/render/results_memory.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace gpunet::report {

namespace {

// The number of kB on meminfo's line `key` ("MemAvailable:   24194408 kB"), in bytes.
std::optional<std::uint64_t> meminfo_bytes(std::string_view meminfo, std::string_view key) {
  for (std::size_t at = 0; at < meminfo.size();) {
    const auto end = std::min(meminfo.find('\n', at), meminfo.size());
    std::string_view line = meminfo.substr(at, end - at);
    at = end + 1;
    if (line.substr(0, key.size()) != key || line.size() <= key.size() || line[key.size()] != ':') continue;
    line.remove_prefix(key.size() + 1);
    line.remove_prefix(std::min(line.find_first_not_of(' '), line.size()));
    std::uint64_t kb = 0;
    const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), kb);
    if (ec != std::errc() || kb > UINT64_MAX / 1024) return std::nullopt;
    return kb * 1024;
  }
  return std::nullopt;
}

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

std::optional<std::uint64_t> number_in(const std::string& path) {
  const std::string t = text_of(path);
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc()) return std::nullopt;  // "max" (v2: no limit), or nothing to read
  return v;
}

std::string gigabytes(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", static_cast<double>(bytes) / 1e9);
  return buf;
}

}  // namespace

std::optional<MemoryRoom> memory_room_of(std::string_view meminfo, std::optional<std::uint64_t> cgroup_limit,
                                         std::optional<std::uint64_t> cgroup_usage) {
  const auto available = meminfo_bytes(meminfo, "MemAvailable");
  if (!available) return std::nullopt;
  MemoryRoom room{*available + meminfo_bytes(meminfo, "SwapFree").value_or(0), "MemAvailable and SwapFree of /proc/meminfo"};
  if (cgroup_limit) {
    const std::uint64_t used = cgroup_usage.value_or(0);
    const std::uint64_t left = *cgroup_limit > used ? *cgroup_limit - used : 0;
    if (left < room.bytes) room = {left, "the memory limit of this process's cgroup, " + gigabytes(*cgroup_limit)};
  }
  return room;
}

std::optional<MemoryRoom> memory_room() {
  std::optional<std::uint64_t> limit, usage;
  std::istringstream groups(text_of("/proc/self/cgroup"));
  for (std::string line; std::getline(groups, line);) {
    const auto colon = line.find(':'), second = line.find(':', colon + 1);
    if (colon == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(colon + 1, second - colon - 1), path = line.substr(second + 1);
    if (line.substr(0, colon) == "0" && controllers.empty()) {  // v2
      if (const auto l = number_in("/sys/fs/cgroup" + path + "/memory.max")) limit = l, usage = number_in("/sys/fs/cgroup" + path + "/memory.current");
    } else if (controllers == "memory") {  // v1
      if (const auto l = number_in("/sys/fs/cgroup/memory" + path + "/memory.limit_in_bytes"))
        limit = l, usage = number_in("/sys/fs/cgroup/memory" + path + "/memory.usage_in_bytes");
    }
  }
  return memory_room_of(text_of("/proc/meminfo"), limit, usage);
}

std::optional<std::string> results_beyond_memory(const std::string& path, std::uint64_t file_bytes, const MemoryRoom& room) {
  if (file_bytes / 2 <= room.bytes) return std::nullopt;
  return path + ": its records need about as much memory as the file's " + gigabytes(file_bytes) +
         " to be analysed (never less than half), and this process may take " + gigabytes(room.bytes) + " more (" +
         room.from + "): analyse it where there is more (gpunet-bench report " + path +
         " -o DIR), or measure fewer pairs (--tcp-pairs random:K)";
}

}  // namespace gpunet::report
