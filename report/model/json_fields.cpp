#include "report/model/json_fields.hpp"

#include <cmath>
#include <limits>

namespace gpunet::report {

using gpunet::json;

namespace {

[[noreturn]] void wrong_kind(const char* key, const char* expected, const json& v) {
  throw FieldError(key, std::string("expected ") + expected + ", got " + json_kind(v));
}

int64_t whole_number(const char* key, const json& v) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // 2^63 is exact in a double; the range check keeps the conversion defined.
    if (std::floor(d) == d && d >= -9.2233720368547758e18 && d < 9.2233720368547758e18) return static_cast<int64_t>(d);
  }
  wrong_kind(key, "a whole number", v);
}

template <class T, class Read>
std::vector<T> list_of(const char* key, const json* v, const char* expected, Read read) {
  std::vector<T> out;
  if (!v) return out;
  if (!v->is_array()) wrong_kind(key, expected, *v);
  out.reserve(v->size());
  for (size_t i = 0; i < v->size(); ++i) {
    try {
      out.push_back(read(key, (*v)[i]));
    } catch (const FieldError& e) {  // the item's own name, made only for a wrong one (a million records are read)
      throw FieldError(std::string(key) + "[" + std::to_string(i) + "]", e.problem());
    }
  }
  return out;
}

std::string text_value(const char* key, const json& v) {
  if (!v.is_string()) wrong_kind(key, "a string", v);
  return v.get<std::string>();
}

double number_value(const char* key, const json& v) {
  if (!v.is_number()) wrong_kind(key, "a number", v);
  return v.get<double>();
}

}  // namespace

FieldError::FieldError(std::string path, std::string problem)
    : std::runtime_error(path.empty() ? problem : path + ": " + problem), path_(std::move(path)), problem_(std::move(problem)) {}

FieldError FieldError::within(const std::string& parent) const {
  if (path_.empty()) return FieldError(parent, problem_);
  return FieldError(parent + (path_.front() == '[' ? "" : ".") + path_, problem_);
}

std::string json_kind(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "true or false";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    default: return "an unreadable value";
  }
}

FieldReader::FieldReader(const json& j) : j_(j) {
  if (!j.is_object()) throw FieldError("", "expected an object, got " + json_kind(j));
}

const json* FieldReader::find(const char* key) const {
  const auto it = j_.find(key);
  return it == j_.end() ? nullptr : &*it;
}

const json& FieldReader::at(const char* key) const {
  const json* v = find(key);
  if (!v) throw FieldError(key, "missing");
  return *v;
}

bool FieldReader::has(const char* key) const { return find(key) != nullptr; }

std::string FieldReader::text(const char* key) const { return text_value(key, at(key)); }

std::string FieldReader::text_or(const char* key, const std::string& fallback) const {
  const json* v = find(key);
  return v ? text_value(key, *v) : fallback;
}

double FieldReader::number(const char* key) const { return number_value(key, at(key)); }

double FieldReader::number_or(const char* key, double fallback) const {
  const json* v = find(key);
  return v ? number_value(key, *v) : fallback;
}

int64_t FieldReader::integer(const char* key) const { return whole_number(key, at(key)); }

int64_t FieldReader::integer_or(const char* key, int64_t fallback) const {
  const json* v = find(key);
  return v ? whole_number(key, *v) : fallback;
}

int FieldReader::int32_or(const char* key, int fallback) const {
  const int64_t v = integer_or(key, fallback);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    throw FieldError(key, "expected a whole number of at most 2147483647 in size, got " + std::to_string(v));
  return static_cast<int>(v);
}

bool FieldReader::boolean_or(const char* key, bool fallback) const {
  const json* v = find(key);
  if (!v) return fallback;
  if (!v->is_boolean()) wrong_kind(key, "true or false", *v);
  return v->get<bool>();
}

std::vector<std::string> FieldReader::texts_or_empty(const char* key) const {
  return list_of<std::string>(key, find(key), "an array of strings", text_value);
}

std::vector<double> FieldReader::numbers_or_empty(const char* key) const {
  return list_of<double>(key, find(key), "an array of numbers", number_value);
}

std::vector<int> FieldReader::int32s_or_empty(const char* key) const {
  return list_of<int>(key, find(key), "an array of whole numbers", [](const char* item, const json& v) {
    const int64_t n = whole_number(item, v);
    if (n < std::numeric_limits<int>::min() || n > std::numeric_limits<int>::max())
      throw FieldError(item, "expected a whole number of at most 2147483647 in size, got " + std::to_string(n));
    return static_cast<int>(n);
  });
}

std::map<std::string, std::string> FieldReader::text_map_or_empty(const char* key) const {
  std::map<std::string, std::string> out;
  const json* v = find(key);
  if (!v) return out;
  if (!v->is_object()) wrong_kind(key, "an object of strings", *v);
  for (const auto& [name, value] : v->get_ref<const json::object_t&>()) {
    if (!value.is_string()) wrong_kind((std::string(key) + "." + name).c_str(), "a string", value);
    out.emplace_hint(out.end(), name, value.get_ref<const std::string&>());  // in order: the object is sorted as the map is
  }
  return out;
}

json FieldReader::object_or(const char* key, json fallback) const {
  const json* v = find(key);
  if (!v) return fallback;
  if (!v->is_object()) wrong_kind(key, "an object", *v);
  return *v;
}

json FieldReader::any_or(const char* key, json fallback) const {
  const json* v = find(key);
  return v ? *v : fallback;
}

json FieldReader::array_or(const char* key, json fallback) const {
  const json* v = find(key);
  if (!v) return fallback;
  if (!v->is_array()) wrong_kind(key, "an array", *v);
  return *v;
}

}  // namespace gpunet::report
