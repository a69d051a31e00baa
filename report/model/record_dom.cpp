#include "report/model/record_dom.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string_view>
#include <vector>

#include "report/model/flow_cpu_facts.hpp"
#include "report/model/json_dom.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

// The depth this reader needs at least: every fixed part of a record nests at most 4 deep; what
// extra holds besides is built as a tree under the given limit.
constexpr std::size_t kRecordDepth = 8;

using simdjson::dom::element;
using Type = simdjson::dom::element_type;

// Each reads one value as FieldReader reads it from the tree (json_fields.hpp), or declines: an
// unsigned beyond int64 and a whole number written as a float are left to the tree's reading.
bool read_text(element e, std::string& out) {
  if (e.type() != Type::STRING) return false;
  out.assign(e.get_string().value_unsafe());
  return true;
}

bool read_integer(element e, int64_t& out) {
  if (e.type() != Type::INT64) return false;
  out = e.get_int64().value_unsafe();
  return true;
}

bool read_int32(element e, int& out) {
  int64_t v = 0;
  if (!read_integer(e, v) || v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) return false;
  out = static_cast<int>(v);
  return true;
}

bool read_number(element e, double& out) {
  if (e.type() == Type::INT64) {
    out = static_cast<double>(e.get_int64().value_unsafe());
    return true;
  }
  if (e.type() != Type::DOUBLE || !in_file_range(e.get_double().value_unsafe())) return false;
  out = e.get_double().value_unsafe();
  return true;
}

// A text read by a parse that throws std::invalid_argument (status, kind).
template <class T, class Parse>
bool read_parsed(element e, T& out, Parse parse) {
  std::string text;
  if (!read_text(e, text)) return false;
  try {
    out = parse(text);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// One field of an object of type T, read into it.
template <class T>
struct FieldOf {
  std::string_view key;
  bool (*read)(element, T&);
};

template <class T, std::size_t N>
constexpr bool sorted_keys(const std::array<FieldOf<T>, N>& fields) {
  return std::is_sorted(fields.begin(), fields.end(), [](const FieldOf<T>& a, const FieldOf<T>& b) { return a.key < b.key; });
}

// Reads each field of the object `e` with its entry in `fields` (sorted by key), each key once; false
// where it is no object, at an unknown or repeated key, at a value an entry declines, or where one of
// the keys `required` is missing (from_json's required fields: the tree's reading words it).
template <class T, std::size_t N>
bool read_object(element e, const std::array<FieldOf<T>, N>& fields, T& out, std::initializer_list<std::string_view> required) {
  if (e.type() != Type::OBJECT) return false;
  std::array<bool, N> seen{};
  const auto place = [&](std::string_view key) {
    const auto it = std::lower_bound(fields.begin(), fields.end(), key,
                                     [](const FieldOf<T>& f, std::string_view k) { return f.key < k; });
    return it != fields.end() && it->key == key ? static_cast<std::size_t>(it - fields.begin()) : N;
  };
  const simdjson::dom::object object = e.get_object().value_unsafe();
  for (const auto field : object) {
    const std::size_t i = place(field.key);
    if (i == N || seen[i] || !fields[i].read(field.value, out)) return false;
    seen[i] = true;
  }
  return std::all_of(required.begin(), required.end(), [&](std::string_view key) {
    const std::size_t i = place(key);
    return i < N && seen[i];
  });
}

constexpr std::array<FieldOf<TimeStats>, 8> kTimeFields = {{
    {"cv", [](element e, TimeStats& t) { return read_number(e, t.cv); }},
    {"max", [](element e, TimeStats& t) { return read_number(e, t.max); }},
    {"mean", [](element e, TimeStats& t) { return read_number(e, t.mean); }},
    {"min", [](element e, TimeStats& t) { return read_number(e, t.min); }},
    {"p50", [](element e, TimeStats& t) { return read_number(e, t.p50); }},
    {"p99", [](element e, TimeStats& t) { return read_number(e, t.p99); }},
    {"samples", [](element e, TimeStats& t) { return read_integer(e, t.samples); }},
    {"stddev", [](element e, TimeStats& t) { return read_number(e, t.stddev); }},
}};

constexpr std::array<FieldOf<Subject>, 10> kSubjectFields = {{
    {"device", [](element e, Subject& s) { return read_text(e, s.device); }},
    {"dst_host", [](element e, Subject& s) { return read_text(e, s.dst_host); }},
    {"dst_iface", [](element e, Subject& s) { return read_text(e, s.dst_iface); }},
    {"dst_rank", [](element e, Subject& s) { return read_int32(e, s.dst_rank); }},
    {"group", [](element e, Subject& s) { return read_text(e, s.group); }},
    {"host", [](element e, Subject& s) { return read_text(e, s.host); }},
    {"iface", [](element e, Subject& s) { return read_text(e, s.iface); }},
    {"kind", [](element e, Subject& s) { return read_parsed(e, s.kind, subject_kind_from_string); }},
    {"nodes", [](element e, Subject& s) { return read_int32(e, s.nodes); }},
    {"rank", [](element e, Subject& s) { return read_int32(e, s.rank); }},
}};

// figure.parameters: an object of texts.
bool read_parameters(element e, FigureParameters& out) {
  if (e.type() != Type::OBJECT) return false;
  FigureParameters::Map map;
  const simdjson::dom::object object = e.get_object().value_unsafe();
  for (const auto field : object) {
    std::string value;
    const std::size_t before = map.size();
    if (!read_text(field.value, value)) return false;
    map.emplace_hint(map.end(), std::string(field.key), std::move(value));
    if (map.size() == before) return false;  // a repeated key
  }
  if (!map.empty()) out = FigureParameters(std::move(map));
  return true;
}

// figure.samples: an array of numbers.
bool read_samples(element e, std::vector<double>& out) {
  if (e.type() != Type::ARRAY) return false;
  const simdjson::dom::array items = e.get_array().value_unsafe();
  out.reserve(items.size());
  for (const element item : items) {
    double v = 0;
    if (!read_number(item, v)) return false;
    out.push_back(v);
  }
  return true;
}

// A figure without a ceiling or an efficiency (the analysis sets those; a run's records carry none).
constexpr std::array<FieldOf<Figure>, 10> kFigureFields = {{
    {"better", [](element e, Figure& f) { return read_parsed(e, f.better, better_from_string); }},
    {"metric", [](element e, Figure& f) { return read_text(e, f.metric); }},
    {"parameters", [](element e, Figure& f) { return read_parameters(e, f.parameters); }},
    {"path", [](element e, Figure& f) { return read_parsed(e, f.path, path_model_from_string); }},
    {"receiving_share", [](element e, Figure& f) { return read_int32(e, f.receiving_share); }},
    {"samples", [](element e, Figure& f) { return read_samples(e, f.samples); }},
    {"sending_share", [](element e, Figure& f) { return read_int32(e, f.sending_share); }},
    {"subject", [](element e, Figure& f) { return read_object(e, kSubjectFields, f.subject, {"kind"}); }},
    {"unit", [](element e, Figure& f) { return read_text(e, f.unit); }},
    {"value", [](element e, Figure& f) { return read_number(e, f.value); }},
}};

// A record's top-level fields; extra is kept to be read once the figure and the kind are known.
struct TopLevel {
  Record& record;
  std::optional<simdjson::dom::object> extra;
};

constexpr std::array<FieldOf<TopLevel>, 20> kRecordFields = {{
    {"algbw_GBps", [](element e, TopLevel& t) { return read_number(e, t.record.algbw_GBps); }},
    {"busbw_GBps", [](element e, TopLevel& t) { return read_number(e, t.record.busbw_GBps); }},
    {"bytes", [](element e, TopLevel& t) { return read_integer(e, t.record.bytes); }},
    {"check", [](element e, TopLevel& t) { return read_text(e, t.record.check); }},
    {"count", [](element e, TopLevel& t) { return read_integer(e, t.record.count); }},
    {"dtype", [](element e, TopLevel& t) { return read_text(e, t.record.dtype); }},
    {"extra",
     [](element e, TopLevel& t) {
       if (e.type() != Type::OBJECT) return false;
       t.extra = e.get_object().value_unsafe();
       return true;
     }},
    {"figure",
     [](element e, TopLevel& t) {
       return read_object(e, kFigureFields, t.record.figure.emplace(), {"metric", "subject", "unit", "value"});
     }},
    {"host", [](element e, TopLevel& t) { return read_text(e, t.record.host); }},
    {"kind", [](element e, TopLevel& t) { return read_parsed(e, t.record.kind, record_kind_from_string); }},
    {"name", [](element e, TopLevel& t) { return read_text(e, t.record.name); }},
    {"op", [](element e, TopLevel& t) { return read_text(e, t.record.op); }},
    {"rank", [](element e, TopLevel& t) { return read_int32(e, t.record.rank); }},
    {"ranks", [](element e, TopLevel& t) { return read_int32(e, t.record.ranks); }},
    {"reason", [](element e, TopLevel& t) { return read_text(e, t.record.reason); }},
    {"status", [](element e, TopLevel& t) { return read_parsed(e, t.record.status, status_from_string); }},
    {"suite", [](element e, TopLevel& t) { return read_text(e, t.record.suite); }},
    {"time_us",
     [](element e, TopLevel& t) {
       return read_object(e, kTimeFields, t.record.time_us, {"cv", "max", "mean", "min", "p50", "p99", "samples", "stddev"});
     }},
    {"variant", [](element e, TopLevel& t) { return read_text(e, t.record.variant); }},
    {"wrong", [](element e, TopLevel& t) { return read_integer(e, t.record.wrong); }},
}};
static_assert(sorted_keys(kTimeFields) && sorted_keys(kSubjectFields) && sorted_keys(kFigureFields) &&
              sorted_keys(kRecordFields));

// Whether every key of the object differs: the tree's reading refuses a repeated one.
bool distinct_keys(simdjson::dom::object object) {
  std::vector<std::string_view> keys;
  keys.reserve(object.size());
  for (const auto field : object) keys.push_back(field.key);
  std::sort(keys.begin(), keys.end());
  return std::adjacent_find(keys.begin(), keys.end()) == keys.end();
}

// Whether extra.timeline_Gbps is figure.samples to the bit, floats alone (hold_timeline_apart).
bool timeline_is_samples(element e, const std::vector<double>& samples) {
  if (e.type() != Type::ARRAY) return false;
  const simdjson::dom::array items = e.get_array().value_unsafe();
  if (items.size() != samples.size()) return false;
  std::size_t i = 0;
  for (const element item : items) {
    if (item.type() != Type::DOUBLE ||
        std::bit_cast<uint64_t>(item.get_double().value_unsafe()) != std::bit_cast<uint64_t>(samples[i++]))
      return false;
  }
  return true;
}

// extra, with what the record holds apart taken out of it as the hold_* functions take it.
bool read_extra(simdjson::dom::object extra, std::size_t max_depth, const HoldLinkFacts& hold, RecordLine& out) {
  if (!distinct_keys(extra)) return false;
  Record& r = out.record;
  const bool flow = r.kind == RecordKind::tcp_flow && r.figure;
  auto& fields = r.extra.get_ref<json::object_t&>();
  for (const auto field : extra) {
    if (field.value.is_object() && (field.key == link_key(LinkEnd::own) || field.key == link_key(LinkEnd::destination))) {
      const LinkEnd end = field.key == link_key(LinkEnd::own) ? LinkEnd::own : LinkEnd::destination;
      HeldObject held;
      if (!hold(field.value, held)) return false;
      (end == LinkEnd::own ? r.link : r.dst_link) = std::move(held.value);
      out.link_texts[static_cast<std::size_t>(end)] = std::move(held.text);
      continue;
    }
    if (field.key == kTimelineKey && r.figure && timeline_is_samples(field.value, r.figure->samples)) {
      r.timeline_in_samples = true;
      continue;
    }
    auto value = json_tree_of(field.value, 2, max_depth);
    if (!value) return false;
    if (field.key == "cpu")
      if (auto facts = flow_cpu_facts(*value)) {
        r.cpu = std::move(facts);
        continue;
      }
    if (flow && r.flow.take(field.key, *value)) continue;
    if (!add_json_field(fields, field.key, std::move(*value))) return false;
  }
  return true;
}

}  // namespace

std::optional<RecordLine> record_of_dom(simdjson::dom::element top, std::size_t max_depth, const HoldLinkFacts& hold) {
  if (max_depth < kRecordDepth) return std::nullopt;
  RecordLine out;
  TopLevel fields{out.record, std::nullopt};
  if (!read_object(top, kRecordFields, fields, {"name", "status", "suite"})) return std::nullopt;
  if (fields.extra && !read_extra(*fields.extra, max_depth, hold, out)) return std::nullopt;
  return out;
}

}  // namespace gpunet::report
