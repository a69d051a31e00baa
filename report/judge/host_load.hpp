// The nodes whose CPUs were busy with other work (or stolen by a hypervisor) while a suite ran, as
// the counters records carry it (extra.host_load, bench/core/counters/host_load.hpp), and what that
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
};

// In report order.
std::vector<BusyHost> busy_hosts(const Report& rep);
// (The analysis puts the same loads in the provenance and on each record: report/analysis/load_during.hpp.)

// SLOWER rows of a suite during which one of the row's hosts (any host, for a figure of the whole
// cluster) was busy become UNCERTAIN; the reason names the host and the load.
void discount_busy_hosts(BaselineComparison& c, const std::vector<BusyHost>& busy);

// Per suite, the most CPU time any node spent on other work, and where: "topo 0 %, tcp 73 % on node-1
// (busy)". "" when no counters record carries a load (counters off, or a file from an older version).
std::string host_load_text(const Report& rep);

// "node-1 and node-2 were busy with other work during mpi, tcp; ..." or, when every one of the run's
// `run_hosts` hosts was, "every one of the 4 hosts was busy ...: a cause common to the hosts, not
// one node's network"; "" when none was.
std::string busy_hosts_text(const std::vector<BusyHost>& busy, size_t run_hosts);

}  // namespace gpunet::report
