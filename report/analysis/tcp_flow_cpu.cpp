#include "report/analysis/tcp_flow_cpu.hpp"

#include <algorithm>
#include <string_view>

#include "report/model/json_access.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

namespace {

// An end held typed (Record::cpu), read as jsonx reads it from extra.
std::optional<FlowEndCpu> held_end_cpu(const std::optional<FlowCpuEnd>& e) {
  if (!e) return std::nullopt;
  return FlowEndCpu{e->user_pct, e->sys_pct, jsonx::int32_of(e->cpu).value_or(-1), e->pinned,
                    e->core_busy == FlowCpuEnd::CoreBusy::number ? std::optional<double>(e->core_busy_pct) : std::nullopt};
}

}  // namespace

std::optional<FlowEndCpu> flow_end_cpu(const Record& r, const char* end) {
  if (r.cpu) {
    const std::string_view way(end);
    return way == "sender" ? held_end_cpu(r.cpu->sender) : way == "receiver" ? held_end_cpu(r.cpu->receiver) : std::nullopt;
  }
  const auto* c = jsonx::object_at(jsonx::section(r.extra, "cpu"), end);
  if (!c) return std::nullopt;
  const auto user = jsonx::number(*c, "user_pct"), sys = jsonx::number(*c, "sys_pct");
  if (!user || !sys) return std::nullopt;
  return FlowEndCpu{*user, *sys, jsonx::integer(*c, "cpu").value_or(-1), jsonx::boolean(*c, "pinned").value_or(false),
                    jsonx::number(*c, "core_busy_pct")};
}

std::string cpu_text(const FlowEndCpu& c) {
  return format_fixed(c.total_pct(), 0) + " % (" + format_fixed(c.user_pct, 0) + "u/" + format_fixed(c.sys_pct, 0) + "s)";
}

std::string flow_cpu_text(const Record& r) {
  const auto tx = flow_end_cpu(r, "sender"), rx = flow_end_cpu(r, "receiver");
  if (!tx && !rx) return "";
  return (tx ? cpu_text(*tx) : "-") + " / " + (rx ? cpu_text(*rx) : "-");
}

namespace {

// Both ends on one host, each pinned to the same single CPU: one core carries the whole flow.
bool share_one_core(const Record& r, const std::optional<FlowEndCpu>& tx, const std::optional<FlowEndCpu>& rx) {
  const auto src = extra_string(r, "src_host"), dst = extra_string(r, "dst_host");
  return tx && rx && src && dst && *src == *dst && tx->pinned && rx->pinned && tx->cpu >= 0 && tx->cpu == rx->cpu;
}

const char* const kHostLimitAdvice = "this figure is the host's limit; try --tcp-streams 4 or a core near the NIC";

}  // namespace

std::optional<std::string> host_cpu_limit(const Record& r) {
  const auto tx = flow_end_cpu(r, "sender"), rx = flow_end_cpu(r, "receiver");
  if (share_one_core(r, tx, rx)) {
    const double load = std::max({tx->total_pct() + rx->total_pct(), tx->core_load_pct(), rx->core_load_pct()});
    if (load < kHostBusyPct) return std::nullopt;
    return "the sender and the receiver shared CPU " + std::to_string(tx->cpu) + ", " + format_fixed(load, 0) +
           " % busy: this figure is the host's limit; give each end its own core";
  }
  const double tx_pct = tx ? tx->core_load_pct() : 0, rx_pct = rx ? rx->core_load_pct() : 0;
  const bool receiver = rx_pct >= tx_pct;
  const double busiest = receiver ? rx_pct : tx_pct;
  if (busiest < kHostBusyPct) return std::nullopt;
  return std::string("the ") + (receiver ? "receiver" : "sender") + "'s core was " + format_fixed(busiest, 0) +
         " % busy: " + kHostLimitAdvice;
}

}  // namespace gpunet::report
