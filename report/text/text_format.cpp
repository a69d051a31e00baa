#include "report/text/text_format.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace gpunet::report {

std::string format_bytes(int64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  auto v = static_cast<double>(bytes);
  int u = 0;
  while (std::fabs(v) >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (v == std::floor(v))
    std::snprintf(buf, sizeof buf, "%.0f %s", v, kUnits[u]);
  else
    std::snprintf(buf, sizeof buf, "%.3g %s", v, kUnits[u]);
  return buf;
}

std::string format_percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", fraction * 100);
  return buf;
}

namespace {

std::string to_chars_text(double x, std::chars_format format, int precision) {
  char buf[400];  // the widest: DBL_MAX in fixed notation with a few decimals
  const auto end = std::to_chars(buf, buf + sizeof buf, x, format, precision).ptr;
  return std::string(buf, end);
}

}  // namespace

std::string format_fixed(double x, int decimals) { return to_chars_text(x, std::chars_format::fixed, decimals); }
std::string format_general(double x, int significant) { return to_chars_text(x, std::chars_format::general, significant); }

std::string format_duration(double seconds) {
  const auto s = static_cast<int64_t>(std::llround(std::max(0.0, seconds)));
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%llds", static_cast<long long>(s));
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%lldm%02llds", static_cast<long long>(s / 60), static_cast<long long>(s % 60));
  else
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", static_cast<long long>(s / 3600),
                  static_cast<long long>((s % 3600) / 60));
  return buf;
}

std::string count_of(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string count_of(std::size_t n, const std::string& word) { return count_of(n, word, word + "s"); }

}  // namespace gpunet::report
