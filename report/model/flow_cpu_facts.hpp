// A TCP flow's CPU cost as its record's extra.cpu holds it: {"sender": END, "receiver": END}, each END
// null (not measured) or {user_pct, sys_pct, cpu, pinned[, core_busy_pct]}. A results.jsonl's reader
// holds it typed (Record::cpu) in place of about 1.3 KB of JSON map nodes a flow (a million flows at
// 1,024 hosts), but only a value that writes back to the very same JSON: numbers of the types the
// tcp suite writes, no other key. Anything else stays in extra. Pure.
#pragma once

#include <cstdint>
#include <optional>

#include "common/json.hpp"

namespace gpunet::report {

struct FlowCpuEnd {
  double user_pct = 0;
  double sys_pct = 0;
  int64_t cpu = -1;
  bool pinned = false;
  enum class CoreBusy : uint8_t { absent, null, number } core_busy = CoreBusy::absent;
  double core_busy_pct = 0;  // when core_busy is number
};

struct FlowCpuFacts {
  std::optional<FlowCpuEnd> sender, receiver;  // none: null in extra.cpu
};

// extra.cpu typed, when it has exactly that shape; none otherwise.
std::optional<FlowCpuFacts> flow_cpu_facts(const gpunet::json& cpu);
// The JSON it was read from.
gpunet::json to_json(const FlowCpuFacts& facts);

}  // namespace gpunet::report
