// The project's JSON value: nlohmann::basic_json with its objects kept in one sorted vector
// (common/sorted_vector_map.hpp) instead of a tree. Every reader, writer and document uses this
// type; keys iterate in sorted order, as they did with std::map, so every output is unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/sorted_vector_map.hpp"

namespace gpunet {

using json = nlohmann::basic_json<SortedVectorMap>;

}  // namespace gpunet

// to_json and from_json for a struct, every listed field by its name; reading keeps the default of a
// missing key. The library's own NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT, for this JSON type
// (the library's is bound to nlohmann::json).
#define GPUNET_JSON_FIELDS_WITH_DEFAULT(Type, ...)                                                            \
  inline void to_json(gpunet::json& nlohmann_json_j, const Type& nlohmann_json_t) {                          \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_TO, __VA_ARGS__))                                 \
  }                                                                                                          \
  inline void from_json(const gpunet::json& nlohmann_json_j, Type& nlohmann_json_t) {                        \
    const Type nlohmann_json_default_obj;                                                                    \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_FROM_WITH_DEFAULT, __VA_ARGS__))                  \
  }
