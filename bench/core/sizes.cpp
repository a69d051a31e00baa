#include "bench/core/sizes.hpp"

#include <cmath>
#include <cstdlib>

namespace gpunet::bench {

std::optional<int64_t> parse_size(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(v) || v <= 0) return std::nullopt;
  std::string suffix(end);
  if (!suffix.empty() && (suffix.back() == 'B' || suffix.back() == 'b') && suffix.size() > 1)
    suffix.pop_back();  // accept 64MB / 64MiB-ish spellings as binary sizes
  if (suffix.size() == 2 && (suffix[1] == 'i' || suffix[1] == 'I')) suffix.pop_back();
  double mult = 1;
  if (suffix.empty()) mult = 1;
  else if (suffix == "K" || suffix == "k") mult = 1024.0;
  else if (suffix == "M" || suffix == "m") mult = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "g") mult = 1024.0 * 1024 * 1024;
  else if (suffix == "T" || suffix == "t") mult = 1024.0 * 1024 * 1024 * 1024;
  else return std::nullopt;
  const double bytes = v * mult;
  if (bytes < 1 || bytes > 9.0e18 || bytes != std::floor(bytes)) return std::nullopt;
  return static_cast<int64_t>(bytes);
}

std::string format_size(int64_t bytes) {
  static const char* units[] = {"", "K", "M", "G", "T"};
  int u = 0;
  int64_t v = bytes;
  while (u < 4 && v >= 1024 && v % 1024 == 0) {
    v /= 1024;
    ++u;
  }
  return std::to_string(v) + units[u];
}

namespace {

// The size after s, or 0 when the sweep ends (past max_bytes, or no growth).
int64_t next_size(int64_t s, int64_t max_bytes, double factor, int64_t step) {
  if (step > 0) return step <= max_bytes - s ? s + step : 0;
  const double next = std::round(static_cast<double>(s) * factor);
  if (!(next > static_cast<double>(s)) || next > static_cast<double>(max_bytes)) return 0;
  return static_cast<int64_t>(next);
}

}  // namespace

std::vector<int64_t> size_sweep(int64_t min_bytes, int64_t max_bytes, double factor, int64_t step) {
  std::vector<int64_t> out;
  if (min_bytes <= 0 || max_bytes < min_bytes) return out;
  for (int64_t s = min_bytes; s > 0; s = next_size(s, max_bytes, factor, step)) out.push_back(s);
  return out;
}

size_t sweep_length(int64_t min_bytes, int64_t max_bytes, double factor, int64_t step, size_t limit) {
  if (min_bytes <= 0 || max_bytes < min_bytes) return 0;
  size_t n = 0;
  for (int64_t s = min_bytes; s > 0 && n <= limit; s = next_size(s, max_bytes, factor, step)) ++n;
  return n;
}

int64_t dtype_size(const std::string& dtype) {
  if (dtype == "float" || dtype == "int32") return 4;
  if (dtype == "double" || dtype == "int64") return 8;
  return 0;
}

}  // namespace gpunet::bench
