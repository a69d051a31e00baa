#include "report/model/flow_facts.hpp"

#include <algorithm>
#include <bit>
#include <string>

namespace gpunet::report {

using gpunet::json;

namespace {

std::optional<size_t> key_place(std::string_view key) {
  const auto it = std::lower_bound(kFlowFactKeys.begin(), kFlowFactKeys.end(), key);
  if (it == kFlowFactKeys.end() || *it != key) return std::nullopt;
  return static_cast<size_t>(it - kFlowFactKeys.begin());
}

std::optional<size_t> text_place(const std::string& text) {
  const auto it = std::find(kFlowTexts.begin(), kFlowTexts.end(), text);
  if (it == kFlowTexts.end()) return std::nullopt;
  return static_cast<size_t>(it - kFlowTexts.begin());
}

}  // namespace

void FlowFacts::take_from(json& extra) {
  if (!extra.is_object()) return;
  for (size_t i = 0; i < kFlowFactKeys.size(); ++i) {
    const auto it = extra.find(kFlowFactKeys[i]);
    if (it == extra.end()) continue;
    const json& v = *it;
    switch (v.type()) {
      case json::value_t::number_integer: bits_[i] = std::bit_cast<uint64_t>(v.get<int64_t>()); break;
      case json::value_t::number_unsigned: bits_[i] = v.get<uint64_t>(); break;
      case json::value_t::number_float: bits_[i] = std::bit_cast<uint64_t>(v.get<double>()); break;
      case json::value_t::string:
        if (const auto t = text_place(v.get_ref<const std::string&>())) {
          bits_[i] = *t;
          break;
        }
        continue;
      default: continue;
    }
    type_[i] = v.type();
    extra.erase(it);
  }
}

bool FlowFacts::empty() const {
  return std::all_of(type_.begin(), type_.end(), [](json::value_t t) { return t == json::value_t::null; });
}

json FlowFacts::value(size_t i) const {
  switch (type_[i]) {
    case json::value_t::number_integer: return std::bit_cast<int64_t>(bits_[i]);
    case json::value_t::number_unsigned: return bits_[i];
    case json::value_t::number_float: return std::bit_cast<double>(bits_[i]);
    case json::value_t::string: return std::string(kFlowTexts[bits_[i]]);
    default: return nullptr;
  }
}

std::optional<json> FlowFacts::at(std::string_view key) const {
  const auto i = key_place(key);
  if (!i || type_[*i] == json::value_t::null) return std::nullopt;
  return value(*i);
}

void FlowFacts::put_into(json& extra) const {
  for (size_t i = 0; i < kFlowFactKeys.size(); ++i)
    if (type_[i] != json::value_t::null) extra[std::string(kFlowFactKeys[i])] = value(i);
}

}  // namespace gpunet::report
