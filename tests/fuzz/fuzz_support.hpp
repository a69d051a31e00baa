// Shared by the fuzz tests: where the data lives, a scratch directory, case counts from the
// environment, and the one-line rule for messages.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace gpunet::fuzz {

inline std::filesystem::path source_dir() { return GPUNET_SOURCE_DIR; }
inline std::filesystem::path regression_dir(const std::string& kind) { return source_dir() / "tests/data/fuzz" / kind; }

// Mutated cases per input kind: GPUNET_FUZZ_CASES, else `fallback` (the sanitizer build sets a
// smaller number through CTest's environment).
inline std::size_t case_count(std::size_t fallback) {
  const char* v = std::getenv("GPUNET_FUZZ_CASES");
  if (v == nullptr || *v == '\0') return fallback;
  return static_cast<std::size_t>(std::strtoul(v, nullptr, 10));
}

// The base seed, GPUNET_FUZZ_SEED to explore other cases (every kind adds its own constant).
inline uint64_t base_seed() {
  const char* v = std::getenv("GPUNET_FUZZ_SEED");
  return v && *v ? std::strtoull(v, nullptr, 10) : 20261201;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

// Every regular file under tests/data/fuzz/<kind>, sorted.
inline std::vector<std::filesystem::path> regression_files(const std::string& kind) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(regression_dir(kind), ec))
    if (e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// A scratch directory removed with the object.
struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("gpunet_fuzz_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

// Empty when `message` is one line that starts with `path`; else what is wrong with it.
inline std::string message_problem(const std::string& message, const std::string& path) {
  if (message.empty()) return "empty message";
  if (message.find('\n') != std::string::npos) return "more than one line: " + message;
  if (message.find(path) == std::string::npos) return "does not name the file: " + message;
  return "";
}

}  // namespace gpunet::fuzz
