// The nodes whose CPUs were busy with other work (or stolen by a hypervisor) while a suite ran, as
// the counters records carry it (extra.host_load, bench/core/counters/host_load.hpp) and, for a figure
// measured in a short window, its record (extra.host_load_window, bench/core/counters/window_load.hpp),
// and what that
// does to a baseline comparison: a figure that got slower while one of its hosts was busy is
// UNCERTAIN, with the reason, not SLOWER. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/judge/baseline.hpp"
#include "report/model/record.hpp"

namespace gpunet::report {

struct BusyHost {
  std::string host, suite;
  std::string why;  // "its CPUs were 97 % busy with other work during mpi (load 12.3 on 2 CPUs)"
  // The key of the one figure measured while the host was busy (a latency round's own window,
  // extra.host_load_window); "" when the host was busy over the whole suite.
  std::string figure;
};

// In report order: the counters records' suites, then the figures' own windows.
std::vector<BusyHost> busy_hosts(const Report& rep);
// (The analysis puts the same loads in the provenance and on each record: report/analysis/load_during.hpp.)

// SLOWER rows of a suite during which one of the row's hosts (any host, for a figure of the whole
// cluster) was busy, and SLOWER figures measured in a window during which one of their hosts was,
// become UNCERTAIN; the reason names the host and the load.
void discount_busy_hosts(BaselineComparison& c, const std::vector<BusyHost>& busy);

// Per suite, the most CPU time any node spent on other work, and where: "topo 0 %, tcp 73 % on node-1
// (busy)". "" when no counters record carries a load (counters off, or a file from an older version).
std::string host_load_text(const Report& rep);

// "node-1 and node-2 were busy with other work during mpi, tcp; ..." or, when every one of the run's
// `run_hosts` hosts was, "every one of the 4 hosts was busy ...: a cause common to the hosts, not
// one node's network"; "" when none was.
std::string busy_hosts_text(const std::vector<BusyHost>& busy, size_t run_hosts);

}  // namespace gpunet::report
