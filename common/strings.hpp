// Small string helpers shared by every library (header-only).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace gpunet {

// "a<sep>b<sep>c"; an empty list joins to "".
inline std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

// "a,b,,c" -> {"a", "b", "c"}: the non-empty items of a comma list.
inline std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) out.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// `text` with every control character written as an escape (\n, \t, \xNN): a message that quotes
// what a file holds stays one line.
inline std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (u < 0x20 || u == 0x7f) out += std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
    else out += c;
  }
  return out;
}

// `text` up to its first newline: a library's message, which may run over several, as one line.
inline std::string first_line(std::string_view text) { return std::string(text.substr(0, text.find('\n'))); }

}  // namespace gpunet
