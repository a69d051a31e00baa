#include "report/model/flow_facts.hpp"

#include <bit>

#include "report/model/json_access.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

template <size_t N>
std::optional<size_t> place_of(const std::array<std::string_view, N>& sorted, std::string_view key) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), key);
  if (it == sorted.end() || *it != key) return std::nullopt;
  return static_cast<size_t>(it - sorted.begin());
}

constexpr std::string_view kStability = "stability", kDips = "dips", kTcpInfo = "tcp_info", kStreamBytes = "stream_bytes";

// The held list's JSON array.
template <class T, class ToJson>
json array_of(const std::vector<T>& items, ToJson to_json) {
  json a = json::array();
  for (const T& item : items) a.push_back(to_json(item));
  return a;
}

// The array's items when `hold` holds each of them; none otherwise (or when it is no array).
template <class T, class Hold>
std::optional<std::vector<T>> held_array(const json& array, Hold hold) {
  if (!array.is_array()) return std::nullopt;
  std::vector<T> items;
  items.reserve(array.size());
  for (const json& v : array) {
    auto item = hold(v);
    if (!item) return std::nullopt;
    items.push_back(std::move(*item));
  }
  return items;
}

}  // namespace

std::optional<HeldScalar> HeldScalar::of(const json& v) {
  switch (v.type()) {
    case json::value_t::number_integer: return HeldScalar{v.type(), std::bit_cast<uint64_t>(v.get<int64_t>())};
    case json::value_t::number_unsigned: return HeldScalar{v.type(), v.get<uint64_t>()};
    case json::value_t::number_float: return HeldScalar{v.type(), std::bit_cast<uint64_t>(v.get<double>())};
    case json::value_t::boolean: return HeldScalar{v.type(), v.get<bool>() ? 1U : 0U};
    case json::value_t::string: {
      const auto& text = v.get_ref<const std::string&>();
      const auto it = std::find(kFlowTexts.begin(), kFlowTexts.end(), text);
      if (it == kFlowTexts.end()) return std::nullopt;
      return HeldScalar{v.type(), static_cast<uint64_t>(it - kFlowTexts.begin())};
    }
    default: return std::nullopt;
  }
}

json HeldScalar::value() const {
  switch (type) {
    case json::value_t::number_integer: return std::bit_cast<int64_t>(bits);
    case json::value_t::number_unsigned: return bits;
    case json::value_t::number_float: return std::bit_cast<double>(bits);
    case json::value_t::boolean: return bits != 0;
    case json::value_t::string: return std::string(kFlowTexts[bits]);
    default: return nullptr;
  }
}

template <const auto& Keys>
bool ScalarObject<Keys>::take(std::string_view key, const json& value) {
  const auto i = place_of(Keys, key);
  const auto held = i ? HeldScalar::of(value) : std::nullopt;
  if (!held) return false;
  type_[*i] = held->type;
  bits_[*i] = held->bits;
  return true;
}

template <const auto& Keys>
std::optional<ScalarObject<Keys>> ScalarObject<Keys>::of_whole(const json& object, std::string_view skip) {
  if (!object.is_object()) return std::nullopt;
  ScalarObject held;
  for (const auto& [key, value] : object.items())
    if (key != skip && !held.take(key, value)) return std::nullopt;
  return held;
}

template <const auto& Keys>
bool ScalarObject<Keys>::empty() const {
  return std::all_of(type_.begin(), type_.end(), [](json::value_t t) { return t == json::value_t::null; });
}

template <const auto& Keys>
std::optional<json> ScalarObject<Keys>::at(std::string_view key) const {
  const auto i = place_of(Keys, key);
  if (!i || type_[*i] == json::value_t::null) return std::nullopt;
  return slot(*i).value();
}

template <const auto& Keys>
void ScalarObject<Keys>::put_into(json& object) const {
  for (size_t i = 0; i < Keys.size(); ++i)
    if (type_[i] != json::value_t::null) object[std::string(Keys[i])] = slot(i).value();
}

template class ScalarObject<kFlowFactKeys>;
template class ScalarObject<kStabilityKeys>;
template class ScalarObject<kTcpInfoKeys>;

void FlowFacts::take_from(json& extra) {
  if (!extra.is_object()) return;
  for (auto it = extra.begin(); it != extra.end();) it = take(it.key(), *it) ? extra.erase(it) : std::next(it);
}

bool FlowFacts::take(std::string_view key, json& value) {
  if (scalars_.take(key, value)) return true;
  if (const auto i = place_of(kFlowTextKeys, key)) {
    if (!value.is_string()) return false;
    texts_[*i] = std::move(value.get_ref<std::string&>());
    return true;
  }
  if (key == kStability) {
    const auto dips = value.is_object() ? value.find(kDips) : value.end();
    if (!value.is_object() || dips == value.end() || !dips->is_array() || !dips->empty()) return false;
    stability_ = ScalarObject<kStabilityKeys>::of_whole(value, kDips);
    return stability_.has_value();
  }
  if (key == kTcpInfo) {
    tcp_info_ = held_array<ScalarObject<kTcpInfoKeys>>(
        value, [](const json& v) { return ScalarObject<kTcpInfoKeys>::of_whole(v); });
    return tcp_info_.has_value();
  }
  if (key == kStreamBytes) {
    stream_bytes_ =
        held_array<HeldScalar>(value, [](const json& v) { return v.is_number() ? HeldScalar::of(v) : std::nullopt; });
    return stream_bytes_.has_value();
  }
  return false;
}

bool FlowFacts::empty() const {
  return scalars_.empty() && std::none_of(texts_.begin(), texts_.end(), [](const auto& t) { return t.has_value(); }) &&
         !stability_ && !tcp_info_ && !stream_bytes_;
}

const std::string* FlowFacts::text(std::string_view key) const {
  const auto i = place_of(kFlowTextKeys, key);
  return i && texts_[*i] ? &*texts_[*i] : nullptr;
}

std::optional<json> FlowFacts::at(std::string_view key) const {
  if (auto v = scalars_.at(key)) return v;
  if (const std::string* t = text(key)) return json(*t);
  if (key == kStability && stability_) {
    json s = {{std::string(kDips), json::array()}};
    stability_->put_into(s);
    return s;
  }
  if (key == kTcpInfo && tcp_info_)
    return array_of(*tcp_info_, [](const ScalarObject<kTcpInfoKeys>& o) {
      json j = json::object();
      o.put_into(j);
      return j;
    });
  if (key == kStreamBytes && stream_bytes_) return array_of(*stream_bytes_, [](const HeldScalar& s) { return s.value(); });
  return std::nullopt;
}

std::optional<long long> FlowFacts::tcp_info_sum(std::string_view key) const {
  if (!tcp_info_) return std::nullopt;
  long long sum = 0;
  for (const auto& stream : *tcp_info_) {
    const auto v = stream.at(key);
    sum += jsonx::integer(v ? &*v : nullptr).value_or(0);
  }
  return sum;
}

void FlowFacts::put_into(json& extra) const {
  scalars_.put_into(extra);
  for (size_t i = 0; i < kFlowTextKeys.size(); ++i)
    if (texts_[i]) extra[std::string(kFlowTextKeys[i])] = *texts_[i];
  for (const std::string_view key : {kStability, kTcpInfo, kStreamBytes})
    if (auto v = at(key)) extra[std::string(key)] = std::move(*v);
}

}  // namespace gpunet::report
