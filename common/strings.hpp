// Small string helpers shared by every library (header-only).
#pragma once

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

}  // namespace gpunet
