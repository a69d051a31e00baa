// The project's JSON value, one name for every reader, writer and document. It is the library's own
// nlohmann::json (objects as std::map): a sorted vector per object (one allocation per object) cut a
// 1,024-host re-render's memory by a fifth, but made an object whose keys arrive out of order cost
// O(n^2) to build, and a hostile 2.6 MB file of 200,000 keys in descending order took over 120 s
// instead of 1.6 s.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpunet {

using json = nlohmann::json;

}  // namespace gpunet
