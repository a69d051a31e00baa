// Defensive reads from JSON written by other parts of the program (Record::extra, Report::topology):
// a missing key or a value of the wrong type reads as "absent", never as an exception.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/json.hpp"

namespace gpunet::report::jsonx {

// The value at key in an object; nullptr when it has none or j is no object.
inline const gpunet::json* member(const gpunet::json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

inline const gpunet::json* object_at(const gpunet::json& j, const char* key) {
  const gpunet::json* v = member(j, key);
  return v && v->is_object() ? v : nullptr;
}

// One empty object that lives as long as the program, for reads that have no object to look in.
inline const gpunet::json& empty_object() {
  static const gpunet::json empty = gpunet::json::object();
  return empty;
}

// The object at key, or an empty object: for chains of optional reads.
inline const gpunet::json& section(const gpunet::json& j, const char* key) {
  const gpunet::json* s = object_at(j, key);
  return s ? *s : empty_object();
}

inline const gpunet::json* array_at(const gpunet::json& j, const char* key) {
  const gpunet::json* v = member(j, key);
  return v && v->is_array() ? v : nullptr;
}

// A value read as the keyed reads below read it; absent for nullptr.
inline std::optional<double> number(const gpunet::json* v) {
  if (!v || !v->is_number()) return std::nullopt;
  return v->get<double>();
}

inline std::optional<double> number(const gpunet::json& j, const char* key) { return number(member(j, key)); }

// An integer as these reads take it: within int's range (its minimum left out), else absent.
inline std::optional<int> int32_of(int64_t v) {
  if (v < -2147483647 || v > 2147483647) return std::nullopt;
  return static_cast<int>(v);
}

inline std::optional<int> integer(const gpunet::json* v) {
  if (!v || !v->is_number_integer()) return std::nullopt;
  return int32_of(v->get<int64_t>());
}

inline std::optional<int> integer(const gpunet::json& j, const char* key) { return integer(member(j, key)); }

inline std::optional<std::string> string(const gpunet::json* v) {
  if (!v || !v->is_string()) return std::nullopt;
  return v->get<std::string>();
}

inline std::optional<std::string> string(const gpunet::json& j, const char* key) { return string(member(j, key)); }

inline std::optional<bool> boolean(const gpunet::json& j, const char* key) {
  const gpunet::json* v = member(j, key);
  if (!v || !v->is_boolean()) return std::nullopt;
  return v->get<bool>();
}

}  // namespace gpunet::report::jsonx
