#include "report/model/json_lines_parser.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>

#include <simdjson.h>

#include "report/model/json_unique_keys.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

bool in_file_range(double v) {
  const double size = std::fabs(v);
  return v == 0 || (size >= kSmallestFileNumber && size <= kLargestFileNumber);
}

// Adds key: value to an object's fields, at the end in one comparison where the keys come sorted (as
// gpunet-bench writes them), else where it sorts. False for a repeated key: parse_json_text words it.
bool add_field(json::object_t& fields, std::string_view key, json&& value) {
  const std::size_t before = fields.size();
  fields.emplace_hint(fields.end(), std::string(key), std::move(value));
  return fields.size() != before;
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
        if (!value || !add_field(fields, field.key, std::move(*value))) return std::nullopt;
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

// Held objects a parser keeps for the texts that come again: a link's facts, two a host.
constexpr std::size_t kHeldTexts = 1 << 14;

struct JsonLinesParser::Reader {
  simdjson::dom::parser parser;
  std::string padded;  // the text, with the padding simdjson reads past its end
  std::vector<HeldPath> held_paths;
  std::unordered_map<std::string, std::shared_ptr<const json>> held_by_text;  // every held object read so far
  std::size_t held_max_depth = 0;                                              // the depth they were read under

  // The text parsed by simdjson, or none where parse_json_text must read it.
  std::optional<simdjson::dom::element> element_of(std::string_view text) {
    if (text.find("\\u") != std::string_view::npos) return std::nullopt;
    padded.assign(text);
    padded.resize(text.size() + simdjson::SIMDJSON_PADDING);
    const auto element = parser.parse(padded.data(), text.size(), false);
    if (element.error()) return std::nullopt;
    return element.value_unsafe();
  }

  // The top-level object's tree with the held objects out of it, into `held`; nullopt as tree_of.
  std::optional<json> tree_holding_apart(simdjson::dom::element e, std::size_t max_depth, std::vector<HeldObject>& held) {
    if (e.type() != simdjson::dom::element_type::OBJECT) return tree_of(e, 0, max_depth);
    if (1 >= max_depth) return std::nullopt;
    if (held_max_depth != max_depth) held_by_text.clear(), held_max_depth = max_depth;
    json out = json::object();
    auto& fields = out.get_ref<json::object_t&>();
    const simdjson::dom::object object = e.get_object().value_unsafe();
    for (const auto field : object) {
      const bool parent = std::any_of(held_paths.begin(), held_paths.end(), [&](const HeldPath& p) { return p.parent == field.key; });
      auto value = parent && field.value.is_object() ? parent_holding_apart(field.key, field.value, max_depth, held)
                                                     : tree_of(field.value, 1, max_depth);
      if (!value || !add_field(fields, field.key, std::move(*value))) return std::nullopt;
    }
    return out;
  }

  // A held object's parent (at depth 1), without the held objects.
  std::optional<json> parent_holding_apart(std::string_view name, simdjson::dom::element e, std::size_t max_depth,
                                           std::vector<HeldObject>& held) {
    if (2 >= max_depth) return std::nullopt;
    json out = json::object();
    auto& fields = out.get_ref<json::object_t&>();
    const simdjson::dom::object object = e.get_object().value_unsafe();
    for (const auto field : object) {
      const auto path = std::find_if(held_paths.begin(), held_paths.end(),
                                     [&](const HeldPath& p) { return p.parent == name && p.key == field.key; });
      if (path != held_paths.end() && field.value.is_object()) {
        HeldObject& slot = held[static_cast<std::size_t>(path - held_paths.begin())];
        if (slot.value || fields.count(field.key)) return std::nullopt;  // a repeated key: parse_json_text words it
        if (!hold(field.value, max_depth, slot)) return std::nullopt;
        continue;
      }
      auto value = tree_of(field.value, 2, max_depth);
      const bool held_there = path != held_paths.end() && held[static_cast<std::size_t>(path - held_paths.begin())].value;
      if (!value || held_there || !add_field(fields, field.key, std::move(*value))) return std::nullopt;
    }
    return out;
  }

  // The held object of that text: the one read before, else built now (at depth 2).
  bool hold(simdjson::dom::element e, std::size_t max_depth, HeldObject& slot) {
    slot.text = simdjson::minify(e);
    if (const auto known = held_by_text.find(slot.text); known != held_by_text.end()) {
      slot.value = known->second;
      return true;
    }
    auto tree = tree_of(e, 2, max_depth);
    if (!tree) return false;
    slot.value = std::make_shared<const json>(std::move(*tree));
    if (held_by_text.size() >= kHeldTexts) held_by_text.clear();  // a file whose every record differs
    held_by_text.emplace(slot.text, slot.value);
    return true;
  }
};

JsonLinesParser::JsonLinesParser(std::vector<HeldPath> held) : reader_(std::make_unique<Reader>()) {
  reader_->held_paths = std::move(held);
}
JsonLinesParser::~JsonLinesParser() = default;

JsonParsed JsonLinesParser::parse(std::string_view text, std::size_t max_depth) {
  if (const auto element = reader_->element_of(text))
    if (auto tree = tree_of(*element, 0, max_depth)) return {std::move(*tree), "", false};
  return parse_json_text(text, max_depth);
}

JsonLineParsed JsonLinesParser::parse_holding_apart(std::string_view text, std::size_t max_depth) {
  JsonLineParsed out;
  if (const auto element = reader_->element_of(text)) {
    out.held.resize(reader_->held_paths.size());
    if (auto tree = reader_->tree_holding_apart(*element, max_depth, out.held)) {
      out.parsed = {std::move(*tree), "", false};
      return out;
    }
    out.held.clear();
  }
  out.parsed = parse_json_text(text, max_depth);
  return out;
}

}  // namespace gpunet::report
