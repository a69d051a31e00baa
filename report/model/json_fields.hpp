// Typed reads of the fields of one JSON object from a file a user hands in (report.json, results.jsonl):
// a required field that is missing, a null, or a value of the wrong type is a FieldError that names the
// field's path and what was expected ("figure.value: expected a number, got null"), never a library's
// exception text. An absent optional field reads as its fallback.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/json.hpp"

namespace gpunet::report {

class FieldError : public std::runtime_error {
 public:
  FieldError(std::string path, std::string problem);
  const std::string& path() const { return path_; }
  const std::string& problem() const { return problem_; }
  // The same error one level down: "value" within "figure" is "figure.value".
  FieldError within(const std::string& parent) const;

 private:
  std::string path_, problem_;
};

// "null", "a string", "a number", "true or false", "an object", "an array".
std::string json_kind(const gpunet::json& v);

class FieldReader {
 public:
  // Throws FieldError (empty path) when j is not an object.
  explicit FieldReader(const gpunet::json& j);

  std::string text(const char* key) const;
  std::string text_or(const char* key, const std::string& fallback) const;
  double number(const char* key) const;
  double number_or(const char* key, double fallback) const;
  int64_t integer(const char* key) const;
  int64_t integer_or(const char* key, int64_t fallback) const;
  int int32_or(const char* key, int fallback) const;
  bool boolean_or(const char* key, bool fallback) const;
  std::vector<std::string> texts_or_empty(const char* key) const;
  std::vector<double> numbers_or_empty(const char* key) const;
  std::vector<int> int32s_or_empty(const char* key) const;
  std::map<std::string, std::string> text_map_or_empty(const char* key) const;
  // An object or array kept as JSON (absent: fallback); another kind is a FieldError.
  gpunet::json object_or(const char* key, gpunet::json fallback) const;
  gpunet::json array_or(const char* key, gpunet::json fallback) const;
  // Any JSON value, unchecked (free-form sections such as a record's extra); absent: fallback.
  gpunet::json any_or(const char* key, gpunet::json fallback) const;
  bool has(const char* key) const;

  // A nested typed value read with its own from_json; its FieldErrors come back under key.
  template <class T>
  T nested(const char* key) const {
    try {
      return at(key).template get<T>();
    } catch (const FieldError& e) {
      throw e.within(key);
    }
  }

  // Converts a parse of one field's text (e.g. an enum name) that throws std::invalid_argument.
  template <class F>
  auto parsed(const char* key, F parse) const -> decltype(parse(std::string())) {
    const std::string s = text(key);
    try {
      return parse(s);
    } catch (const std::invalid_argument& e) {
      throw FieldError(key, e.what());
    }
  }

 private:
  const gpunet::json& at(const char* key) const;  // required: missing is a FieldError
  const gpunet::json* find(const char* key) const;
  const gpunet::json& j_;
};

}  // namespace gpunet::report
