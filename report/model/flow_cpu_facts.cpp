#include "report/model/flow_cpu_facts.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

// The value at key in an object; nullptr when it has none.
const json* member(const json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

std::optional<FlowCpuEnd> end_of(const json& j) {
  if (!j.is_object() || j.size() < 4 || j.size() > 5) return std::nullopt;
  const json *user = member(j, "user_pct"), *sys = member(j, "sys_pct"), *cpu = member(j, "cpu"),
             *pinned = member(j, "pinned"), *busy = member(j, "core_busy_pct");
  if (!user || !user->is_number_float() || !sys || !sys->is_number_float() || !cpu || !cpu->is_number_integer() ||
      !pinned || !pinned->is_boolean() || (j.size() == 5) != (busy != nullptr))
    return std::nullopt;
  if (cpu->is_number_unsigned() && cpu->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  FlowCpuEnd e;
  e.user_pct = user->get<double>();
  e.sys_pct = sys->get<double>();
  e.cpu = cpu->get<int64_t>();
  e.pinned = pinned->get<bool>();
  if (busy) {
    if (busy->is_null()) {
      e.core_busy = FlowCpuEnd::CoreBusy::null;
    } else if (busy->is_number_float()) {
      e.core_busy = FlowCpuEnd::CoreBusy::number;
      e.core_busy_pct = busy->get<double>();
    } else {
      return std::nullopt;
    }
  }
  return e;
}

json end_json(const std::optional<FlowCpuEnd>& e) {
  if (!e) return nullptr;
  json j = {{"user_pct", e->user_pct}, {"sys_pct", e->sys_pct}, {"cpu", e->cpu}, {"pinned", e->pinned}};
  if (e->core_busy == FlowCpuEnd::CoreBusy::null) j["core_busy_pct"] = nullptr;
  if (e->core_busy == FlowCpuEnd::CoreBusy::number) j["core_busy_pct"] = e->core_busy_pct;
  return j;
}

}  // namespace

std::optional<FlowCpuFacts> flow_cpu_facts(const json& cpu) {
  if (!cpu.is_object() || cpu.size() != 2) return std::nullopt;
  const json *sender = member(cpu, "sender"), *receiver = member(cpu, "receiver");
  if (!sender || !receiver) return std::nullopt;
  FlowCpuFacts facts;
  for (const auto& [from, to] : {std::pair{sender, &facts.sender}, std::pair{receiver, &facts.receiver}}) {
    if (from->is_null()) continue;
    *to = end_of(*from);
    if (!*to) return std::nullopt;
  }
  return facts;
}

json to_json(const FlowCpuFacts& facts) { return {{"sender", end_json(facts.sender)}, {"receiver", end_json(facts.receiver)}}; }

}  // namespace gpunet::report
