// The whole text of a small system file (/proc, /sys, a cgroup's), read at once: the readers of sysfs
// (topology/), of /proc for host load (bench/core/counters/) and of the memory left (report/render/).
// Unbounded: for the files the kernel writes, not for user input (common/input_file.hpp).
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace gpunet {

// The file's text; nullopt when it cannot be opened or read.
inline std::optional<std::string> read_small_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

}  // namespace gpunet
