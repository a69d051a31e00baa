// The CPU cost of a TCP flow as its record carries it (extra.cpu.sender / .receiver: user_pct,
// sys_pct, cpu), as text for the flows table, and the rule that calls a flow limited by its host
// rather than its link. Pure.
#pragma once

#include <optional>
#include <string>

#include "report/model/record.hpp"

namespace gpunet::report {

// An end at or above this share of its core is saturated: the flow measured the host, not the link.
inline constexpr double kHostBusyPct = 90.0;

struct FlowEndCpu {
  double user_pct = 0;
  double sys_pct = 0;
  int cpu = -1;
  bool pinned = false;  // its thread could run on `cpu` alone
  std::optional<double> core_busy_pct;  // a pinned end's CPU, busy with every task on it
  double total_pct() const { return user_pct + sys_pct; }
  // How busy the end's core was: its thread's share, or more where the pinned CPU was busier.
  double core_load_pct() const { return core_busy_pct && *core_busy_pct > total_pct() ? *core_busy_pct : total_pct(); }
};

// One end ("sender" or "receiver") of a flow record; none when the record does not carry it.
std::optional<FlowEndCpu> flow_end_cpu(const Record& r, const char* end);

// "98 % (4u/94s)"
std::string cpu_text(const FlowEndCpu& c);
// "98 % (4u/94s) / 61 % (3u/58s)", "-" for an end not measured; "" when neither was.
std::string flow_cpu_text(const Record& r);

// "the receiver's core was 99 % busy: this figure is the host's limit; try --tcp-streams 4 or a core
// near the NIC" when the busier end's core (core_load_pct) reached kHostBusyPct. Both ends pinned to one
// and the same CPU of one host share that core: its load is their sum or its own reading, the larger
// ("the sender and the receiver shared CPU 0, 98 % busy: ..."). Else none.
std::optional<std::string> host_cpu_limit(const Record& r);

}  // namespace gpunet::report
