// A strict reader for JSON input files (the acceptance spec, the baseline): every accessor checks the
// type and range of one field and, on a problem, throws Error("SOURCE: field.path: problem").
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>

#include "common/json.hpp"

#include "common/strings.hpp"

namespace gpunet::report {

// The value under `key` in an object, or nullptr when absent.
inline const gpunet::json* json_field(const gpunet::json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

template <class Error>
class StrictReader {
 public:
  explicit StrictReader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw Error(printable(source_ + ": " + (path.empty() ? "" : path + ": ") + problem));  // keys may hold newlines
  }

  static std::string got(const gpunet::json& v) {
    if (v.is_object()) return "an object";
    if (v.is_array()) return "an array";
    if (v.is_null()) return "null";
    std::string s = v.dump();
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return s;
  }

  void object(const gpunet::json& j, const std::string& path, std::initializer_list<const char*> known) const {
    if (!j.is_object()) fail(path, "expected an object, got " + got(j));
    for (const auto& [key, value] : j.items()) {
      bool ok = false;
      for (const char* k : known) ok = ok || key == k;
      if (ok) continue;
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      fail(join(path, key), "unknown key (known here: " + list + ")");
    }
  }

  // The value under key in object j (at path), which must be there.
  const gpunet::json& required(const gpunet::json& j, const std::string& path, const char* key) const {
    const gpunet::json* v = json_field(j, key);
    if (!v) fail(join(path, key), "missing (required)");
    return *v;
  }

  double number(const gpunet::json& j, const std::string& path, double lo, double hi, bool lo_open) const {
    if (!j.is_number()) fail(path, "expected a number, got " + got(j));
    const double v = j.get<double>();
    if (!std::isfinite(v) || v > hi || (lo_open ? v <= lo : v < lo)) {
      std::ostringstream os;
      os << got(j) << " is out of range (expected " << (lo_open ? "> " : ">= ") << lo << " and <= " << hi << ")";
      fail(path, os.str());
    }
    return v;
  }

  int64_t integer(const gpunet::json& j, const std::string& path, int64_t lo, int64_t hi) const {
    if (!j.is_number_integer()) fail(path, "expected an integer, got " + got(j));
    const bool too_big = j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX);
    const int64_t v = too_big ? INT64_MAX : j.get<int64_t>();
    if (too_big || v < lo || v > hi)
      fail(path, got(j) + " is out of range (expected " + std::to_string(lo) + " to " + std::to_string(hi) + ")");
    return v;
  }

  std::string string(const gpunet::json& j, const std::string& path, bool allow_empty = false) const {
    if (!j.is_string()) fail(path, "expected a string, got " + got(j));
    auto s = j.get<std::string>();
    if (!allow_empty && s.empty()) fail(path, "must not be empty");
    return s;
  }

  bool boolean(const gpunet::json& j, const std::string& path) const {
    if (!j.is_boolean()) fail(path, "expected true or false, got " + got(j));
    return j.get<bool>();
  }

  const gpunet::json& array(const gpunet::json& j, const std::string& path) const {
    if (!j.is_array()) fail(path, "expected an array, got " + got(j));
    return j;
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

 private:
  std::string source_;
};

}  // namespace gpunet::report
