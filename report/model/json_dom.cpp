#include "report/model/json_dom.hpp"

#include <cmath>

#include "report/model/json_unique_keys.hpp"

namespace gpunet::report {

using gpunet::json;

bool in_file_range(double v) {
  const double size = std::fabs(v);
  return v == 0 || (size >= kSmallestFileNumber && size <= kLargestFileNumber);
}

bool add_json_field(json::object_t& fields, std::string_view key, json&& value) {
  const std::size_t before = fields.size();
  fields.emplace_hint(fields.end(), std::string(key), std::move(value));
  return fields.size() != before;
}

std::optional<json> json_tree_of(simdjson::dom::element e, std::size_t depth, std::size_t max_depth) {
  using Type = simdjson::dom::element_type;
  switch (e.type()) {
    case Type::OBJECT: {
      if (depth + 1 >= max_depth) return std::nullopt;
      json out = json::object();
      auto& fields = out.get_ref<json::object_t&>();
      const simdjson::dom::object object = e.get_object().value_unsafe();
      for (const auto field : object) {
        auto value = json_tree_of(field.value, depth + 1, max_depth);
        if (!value || !add_json_field(fields, field.key, std::move(*value))) return std::nullopt;
      }
      return out;
    }
    case Type::ARRAY: {
      if (depth + 1 >= max_depth) return std::nullopt;
      json out = json::array();
      auto& items = out.get_ref<json::array_t&>();
      const simdjson::dom::array array = e.get_array().value_unsafe();
      for (const auto item : array) {
        auto value = json_tree_of(item, depth + 1, max_depth);
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

}  // namespace gpunet::report
