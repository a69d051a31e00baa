#include "report/model/json_lines_parser.hpp"

#include <cmath>
#include <optional>
#include <string>

#include <simdjson.h>

#include "report/model/json_unique_keys.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

bool in_file_range(double v) {
  const double size = std::fabs(v);
  return v == 0 || (size >= kSmallestFileNumber && size <= kLargestFileNumber);
}

// The tree of a well-formed element, as nlohmann's parser builds it (a non-negative integer is
// unsigned); nullopt where parse_json_text must decide: a repeated key, a number out of range, too deep.
std::optional<json> tree_of(simdjson::dom::element e, std::size_t depth, std::size_t max_depth) {
  using Type = simdjson::dom::element_type;
  switch (e.type()) {
    case Type::OBJECT: {
      if (depth + 1 >= max_depth) return std::nullopt;
      json out = json::object();
      auto& fields = out.get_ref<json::object_t&>();
      const simdjson::dom::object object = e.get_object().value_unsafe();
      for (const auto field : object) {
        auto value = tree_of(field.value, depth + 1, max_depth);
        if (!value || !fields.emplace(std::string(field.key), std::move(*value)).second) return std::nullopt;
      }
      return out;
    }
    case Type::ARRAY: {
      if (depth + 1 >= max_depth) return std::nullopt;
      json out = json::array();
      auto& items = out.get_ref<json::array_t&>();
      const simdjson::dom::array array = e.get_array().value_unsafe();
      for (const auto item : array) {
        auto value = tree_of(item, depth + 1, max_depth);
        if (!value) return std::nullopt;
        items.push_back(std::move(*value));
      }
      return out;
    }
    case Type::INT64: {
      const int64_t v = e.get_int64().value_unsafe();
      return v >= 0 ? json(static_cast<uint64_t>(v)) : json(v);
    }
    case Type::UINT64: return json(e.get_uint64().value_unsafe());
    case Type::DOUBLE: {
      const double v = e.get_double().value_unsafe();
      if (!in_file_range(v)) return std::nullopt;
      return json(v);
    }
    case Type::STRING: return json(std::string(e.get_string().value_unsafe()));
    case Type::BOOL: return json(e.get_bool().value_unsafe());
    case Type::NULL_VALUE: return json(nullptr);
  }
  return std::nullopt;
}

}  // namespace

struct JsonLinesParser::Reader {
  simdjson::dom::parser parser;
  std::string padded;  // the text, with the padding simdjson reads past its end
};

JsonLinesParser::JsonLinesParser() : reader_(std::make_unique<Reader>()) {}
JsonLinesParser::~JsonLinesParser() = default;

JsonParsed JsonLinesParser::parse(std::string_view text, std::size_t max_depth) {
  if (text.find("\\u") == std::string_view::npos) {
    Reader& r = *reader_;
    r.padded.assign(text);
    r.padded.resize(text.size() + simdjson::SIMDJSON_PADDING);
    const auto element = r.parser.parse(r.padded.data(), text.size(), false);
    if (!element.error())
      if (auto tree = tree_of(element.value_unsafe(), 0, max_depth)) return {std::move(*tree), "", false};
  }
  return parse_json_text(text, max_depth);
}

}  // namespace gpunet::report
