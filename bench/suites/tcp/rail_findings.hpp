// The findings of a run on several rails: each rail's matrix findings (records.hpp's findings, by
// host) put together, so that a slowness is named where it lies (rails.hpp's localise): one NIC as
// host + interface + rail, a node slow on every rail as the node, a rail slow on every node as that
// rail's network. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::bench::tcp {

// per_rail[k]: the findings of rail k's matrix (hosts named plainly); ifaces[k]: rail k's interface.
std::vector<report::Record> rail_findings(const std::vector<std::vector<report::Record>>& per_rail,
                                          const std::vector<std::string>& ifaces);

}  // namespace gpunet::bench::tcp
