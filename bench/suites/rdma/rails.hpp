// Several RDMA devices or ports, one per rail: --rdma-dev mlx5_0,mlx5_1 (or dev:port items) or
// --rdma-dev all (every ACTIVE port of every device in SYS/class/infiniband). Rail k of one rank is
// paired with rail k of every other rank (the same position in each rank's list). Pure functions:
// tests give them sysfs trees they build and hand-made discoveries.
//
// The multi-port path has never run on RDMA hardware; only these functions are tested (on sysfs
// trees laid out like multi-HCA machines).
#pragma once

#include <string>
#include <vector>

#include "bench/suites/rdma/engine.hpp"

namespace gpunet::bench::rdma {

// What --rdma-dev asked for. Neither all nor several names: the one-device path (select_port).
struct RdmaDevRequest {
  bool all = false;
  std::vector<std::string> names;  // "dev" or "dev:port", in the order given
  bool several() const { return all || names.size() > 1; }
};

// Parses the option's text; "" on success, else one line saying what is wrong and what to write.
std::string parse_rdma_devs(const std::string& text, RdmaDevRequest& out);

// Every ACTIVE port (ports/<n>/state "4: ACTIVE") of every device under SYS/class/infiniband, as
// "dev:port": devices in name order (mlx5_2 before mlx5_10), ports ascending. Empty when none.
std::vector<std::string> active_ports_in_sysfs(const std::string& sys_root);

// The ports of the rails this rank uses, one PortSelection per rail, in rail order. `names` is the
// request's list, or active_ports_in_sysfs for "all". A name that select_port refuses makes the
// whole choice one failed selection (the first refusal); no names at all is a skip.
std::vector<PortSelection> select_rails(const Discovery& d, const std::vector<std::string>& names);

// Rail k across the ranks: ports[k][rank] is "dev:port". error is one line naming the host of the
// first rank with fewer rails than another (or none), when the counts differ; ports is then empty.
struct RailPairing {
  std::vector<std::vector<std::string>> ports;
  std::string error;
};
RailPairing pair_rails(const std::vector<std::vector<std::string>>& per_rank, const std::vector<std::string>& hosts);

// "rail 0: nodeA/0 mlx5_0:1, nodeB/1 mlx5_0:1" per rail, for the plan and the report.
std::vector<std::string> rail_plan_lines(const RailPairing& p, const std::vector<std::string>& hosts);

}  // namespace gpunet::bench::rdma
