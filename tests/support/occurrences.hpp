// How many times a piece of text occurs in a rendered output (overlapping occurrences counted).
#pragma once

#include <cstddef>
#include <string>

namespace gpunet::test_support {

inline std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace gpunet::test_support
