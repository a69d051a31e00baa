// Byte-size parsing (K/M/G suffixes, binary) and the size sweep. Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpunet::bench {

// "64", "8K", "1M", "2G", "1.5M" -> bytes (K = 1024). nullopt on anything else or on <= 0.
std::optional<int64_t> parse_size(const std::string& text);

// Human form: 1024 -> "1K", 67108864 -> "64M", 1000 -> "1000".
std::string format_size(int64_t bytes);

// Sizes from min to max, multiplying by factor (or adding step when step > 0), max included.
std::vector<int64_t> size_sweep(int64_t min_bytes, int64_t max_bytes, double factor, int64_t step);

// The bytes of one element of a -d/--datatype type (float, double, int32, int64); 0 for an unknown type.
int64_t dtype_size(const std::string& dtype);

// How many sizes size_sweep() gives, counting no further than limit + 1 (nothing is allocated).
size_t sweep_length(int64_t min_bytes, int64_t max_bytes, double factor, int64_t step, size_t limit);

}  // namespace gpunet::bench
