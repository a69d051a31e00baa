// Small text formatters shared by analysis and the renderers. Pure.
#pragma once

#include <cstdint>
#include <string>

namespace gpunet::report {

std::string format_bytes(int64_t bytes);      // 1 B, 8 KiB, 64 MiB, 1.5 GiB (binary prefixes, as -b/-e take)
std::string format_percent(double fraction);  // 0.8734 -> "87%"
std::string format_fixed(double x, int decimals);
std::string format_duration(double seconds);  // 42s, 3m05s, 1h02m

}  // namespace gpunet::report
