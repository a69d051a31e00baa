#include "report/model/json_lines_parser.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>

#include "report/model/json_dom.hpp"
#include "report/model/record_dom.hpp"

namespace gpunet::report {

using gpunet::json;

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
    if (e.type() != simdjson::dom::element_type::OBJECT) return json_tree_of(e, 0, max_depth);
    if (1 >= max_depth) return std::nullopt;
    held_under(max_depth);
    json out = json::object();
    auto& fields = out.get_ref<json::object_t&>();
    const simdjson::dom::object object = e.get_object().value_unsafe();
    for (const auto field : object) {
      const bool parent = std::any_of(held_paths.begin(), held_paths.end(), [&](const HeldPath& p) { return p.parent == field.key; });
      auto value = parent && field.value.is_object() ? parent_holding_apart(field.key, field.value, max_depth, held)
                                                     : json_tree_of(field.value, 1, max_depth);
      if (!value || !add_json_field(fields, field.key, std::move(*value))) return std::nullopt;
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
      auto value = json_tree_of(field.value, 2, max_depth);
      const bool held_there = path != held_paths.end() && held[static_cast<std::size_t>(path - held_paths.begin())].value;
      if (!value || held_there || !add_json_field(fields, field.key, std::move(*value))) return std::nullopt;
    }
    return out;
  }

  // Forgets the held objects read under another depth limit.
  void held_under(std::size_t max_depth) {
    if (held_max_depth != max_depth) held_by_text.clear(), held_max_depth = max_depth;
  }

  // The held object of that text: the one read before, else built now (at depth 2).
  bool hold(simdjson::dom::element e, std::size_t max_depth, HeldObject& slot) {
    slot.text = simdjson::minify(e);
    if (const auto known = held_by_text.find(slot.text); known != held_by_text.end()) {
      slot.value = known->second;
      return true;
    }
    auto tree = json_tree_of(e, 2, max_depth);
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
    if (auto tree = json_tree_of(*element, 0, max_depth)) return {std::move(*tree), "", false};
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

std::optional<RecordLine> JsonLinesParser::parse_record(std::string_view text, std::size_t max_depth) {
  const auto element = reader_->element_of(text);
  if (!element) return std::nullopt;
  reader_->held_under(max_depth);
  return record_of_dom(*element, max_depth,
                       [&](simdjson::dom::element e, HeldObject& slot) { return reader_->hold(e, max_depth, slot); });
}

RecordLine JsonLinesParser::record_of_tree(JsonLineParsed& read) {
  json& j = read.parsed.value;
  json extra = json::object();
  if (const auto it = j.find("extra"); it != j.end()) {  // moved, not copied
    extra = std::move(*it);
    j.erase(it);
  }
  RecordLine out{j.get<Record>(), {}};
  Record& r = out.record;
  r.extra = std::move(extra);
  out.link_texts = hold_links_apart(r);  // those the parser left in extra
  for (const LinkEnd end : {LinkEnd::own, LinkEnd::destination}) {
    const auto i = static_cast<std::size_t>(end);
    if (i >= read.held.size() || !read.held[i].value) continue;
    (end == LinkEnd::own ? r.link : r.dst_link) = std::move(read.held[i].value);
    out.link_texts[i] = std::move(read.held[i].text);
  }
  hold_cpu_apart(r);
  hold_timeline_apart(r);
  hold_flow_facts_apart(r);
  return out;
}

}  // namespace gpunet::report
