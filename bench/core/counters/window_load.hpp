// How busy a host was, with other work or a hypervisor's steal, during one short measurement (a tcp
// bandwidth or latency round of about a second). A second of someone else's work moves a ping-pong's
// median on a 2-core VM from ~11 to ~25 us, and a whole suite's load (host_load.hpp) averages it away;
// the figures measured in that window carry the busy hosts' loads (extra.host_load_window, read by
// report/judge/host_load.hpp), so a baseline calls them UNCERTAIN rather than SLOWER.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "bench/core/counters/host_load.hpp"
#include "report/model/record.hpp"

namespace gpunet::bench::counters {

class WindowLoad {
 public:
  // Takes the first snapshot. `busy_pct`: --host-busy-pct (is_busy's threshold).
  WindowLoad(std::string proc_root, double busy_pct);
  // {"host", "others_pct", "steal_pct", "busy", "summary"} from the first snapshot to now; null when
  // too little CPU time passed to judge (host_load's 50 clock ticks). `what`: "tcp latency round 2/3".
  gpunet::json finish(const std::string& host, const std::string& what) const;

 private:
  std::string proc_root_;
  double busy_pct_;
  LoadSnapshot before_;
};

// The busy ones of every host's window (finish's objects, nulls skipped), by host.
std::map<std::string, gpunet::json> busy_windows(const std::vector<gpunet::json>& loads);

// Each record with a figure gets extra.host_load_window: the busy windows of the hosts its subject
// involves (every busy host for a figure of a group or of the cluster); nothing when none was busy.
void attach_busy_windows(std::vector<report::Record>& recs, const std::map<std::string, gpunet::json>& busy);

}  // namespace gpunet::bench::counters
