#include "report/render/results_memory.hpp"

#include <charconv>
#include <cstdio>
#include <sstream>

#include "common/small_file.hpp"

namespace gpunet::report {

namespace {

// The number after `key` on its own line of `text` ("MemAvailable:   24194408 kB", "file 3206938624").
std::optional<std::uint64_t> value_after(std::string_view text, std::string_view key) {
  for (std::size_t at = 0; at < text.size();) {
    const auto end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (line.substr(0, key.size()) != key || line.size() <= key.size()) continue;
    line.remove_prefix(key.size());
    if (line.front() == ':') line.remove_prefix(1);
    if (line.empty() || line.front() != ' ') continue;
    line.remove_prefix(std::min(line.find_first_not_of(' '), line.size()));
    std::uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec != std::errc()) return std::nullopt;
    return v;
  }
  return std::nullopt;
}

// meminfo's `key` line, in bytes (it says kB).
std::optional<std::uint64_t> meminfo_kb(std::string_view meminfo, std::string_view key) {
  const auto kb = value_after(meminfo, key);
  if (!kb || *kb > UINT64_MAX / 1024) return std::nullopt;
  return *kb * 1024;
}

std::string text_of(const std::string& path) { return read_small_file(path).value_or(""); }

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

std::optional<MemoryRoom> memory_room_of(std::string_view meminfo, const std::optional<CgroupMemory>& cgroup) {
  const auto available = meminfo_kb(meminfo, "MemAvailable");
  if (!available) return std::nullopt;
  MemoryRoom room{*available + meminfo_kb(meminfo, "SwapFree").value_or(0), "MemAvailable and SwapFree of /proc/meminfo"};
  if (cgroup) {
    const std::uint64_t held = cgroup->usage > cgroup->file ? cgroup->usage - cgroup->file : 0;
    const std::uint64_t left = cgroup->limit > held ? cgroup->limit - held : 0;
    if (left < room.bytes) room = {left, "the memory limit of this process's cgroup, " + gigabytes(cgroup->limit)};
  }
  return room;
}

std::optional<MemoryRoom> memory_room() {
  std::optional<CgroupMemory> cgroup;
  std::istringstream groups(text_of("/proc/self/cgroup"));
  for (std::string line; std::getline(groups, line);) {
    const auto colon = line.find(':'), second = line.find(':', colon + 1);
    if (colon == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(colon + 1, second - colon - 1), path = line.substr(second + 1);
    const bool v2 = line.substr(0, colon) == "0" && controllers.empty();
    if (!v2 && controllers != "memory") continue;
    const std::string dir = (v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory") + path + "/memory.";
    const auto limit = number_in(dir + (v2 ? "max" : "limit_in_bytes"));  // v2 "max": no limit
    if (!limit) continue;
    const std::string stat = text_of(dir + "stat");
    cgroup = CgroupMemory{*limit, number_in(dir + (v2 ? "current" : "usage_in_bytes")).value_or(0),
                          value_after(stat, v2 ? "file" : "total_cache").value_or(0)};
  }
  return memory_room_of(text_of("/proc/meminfo"), cgroup);
}

std::optional<std::string> results_beyond_memory(const std::string& path, std::uint64_t file_bytes, const MemoryRoom& room) {
  if (file_bytes / 2 <= room.bytes) return std::nullopt;
  return path + ": its records need about as much memory as the file's " + gigabytes(file_bytes) +
         " to be analysed (never less than half), and this process may take " + gigabytes(room.bytes) + " more (" +
         room.from + "): analyse it where there is more (gpunet-bench report " + path +
         " -o DIR), or measure fewer pairs (--tcp-pairs random:K)";
}

std::optional<std::string> results_beyond_memory(const std::string& path, std::uint64_t file_bytes) {
  const auto room = memory_room();
  return room ? results_beyond_memory(path, file_bytes, *room) : std::nullopt;
}

}  // namespace gpunet::report
