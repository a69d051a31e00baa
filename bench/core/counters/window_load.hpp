// How busy this host was, with other work or a hypervisor's steal, during one short measurement (a
// latency round of about a second). A second of someone else's work moves a ping-pong's median on a
// 2-core VM from ~11 to ~25 us, and a whole suite's load (host_load.hpp) averages it away; the figure
// measured in that window carries its own load (extra.host_load_window, read by
// report/judge/host_load.hpp), so a baseline calls it UNCERTAIN rather than SLOWER.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "bench/core/counters/host_load.hpp"

namespace gpunet::bench::counters {

class WindowLoad {
 public:
  // Takes the first snapshot. `busy_pct`: --host-busy-pct (is_busy's threshold).
  WindowLoad(std::string proc_root, double busy_pct);
  // {"host", "others_pct", "steal_pct", "busy", "summary"} from the first snapshot to now; null when
  // too little CPU time passed to judge (host_load's 50 clock ticks). `what`: "tcp latency round 2/3".
  nlohmann::json finish(const std::string& host, const std::string& what) const;

 private:
  std::string proc_root_;
  double busy_pct_;
  LoadSnapshot before_;
};

}  // namespace gpunet::bench::counters
