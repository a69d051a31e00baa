// The nodes whose CPUs were busy with other work (or stolen by a hypervisor) while a suite ran, as
// the counters records carry it (extra.host_load, bench/core/counters/host_load.hpp), and what that
// does to a baseline comparison: a figure that got slower while one of its hosts was busy is
// UNCERTAIN, with the reason, not SLOWER. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/baseline.hpp"
#include "report/record.hpp"

namespace gpunet::report {

struct BusyHost {
  std::string host, suite;
  std::string why;  // "its CPUs were 97 % busy with other work during mpi (load 12.3 on 2 CPUs)"
};

// In report order.
std::vector<BusyHost> busy_hosts(const Report& rep);

// Puts the counters records' loads where a reader of the run looks for them: per suite and node in
// the provenance (provenance.host_load), and on each record measured during a suite with a load, the
// load of the hosts it involves (extra.host_load_during: [{host, others_pct, steal_pct, busy}]; every
// node for a figure of the whole cluster). Idempotent; a report without loads is left as it is.
void attach_host_load(Report& rep);

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
