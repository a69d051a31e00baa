// Small text formatters shared by analysis and the renderers. Pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpunet::report {

std::string format_bytes(int64_t bytes);      // 1 B, 8 KiB, 64 MiB, 1.5 GiB (binary prefixes, as -b/-e take)
std::string format_percent(double fraction);  // 0.8734 -> "87%"
// printf's "%.*f" and "%.*g" in the C locale (no program here sets another), written by std::to_chars,
// which the standard holds to the same text and which is several times faster (a million CSV rows).
std::string format_fixed(double x, int decimals);
std::string format_general(double x, int significant);
std::string format_duration(double seconds);  // 42s, 3m05s, 1h02m
// "1 promise", "3 promises": a count and its noun; count_of(n, word) adds an "s" for the plural.
std::string count_of(std::size_t n, const std::string& one, const std::string& many);
std::string count_of(std::size_t n, const std::string& word);

}  // namespace gpunet::report
