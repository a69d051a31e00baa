// The tcp `fabric` test's pure parts (docs/fabric.md): which flows drive each leaf's uplink, and the
// record of one uplink from the flows' records. For each leaf, every participant below it is paired
// with one in another rack (round-robin), and each pair sends both ways at once, so everything the
// leaf's nodes can send crosses the uplink at the same time. The record's figure is
// `fabric.oversubscription` (report/analysis/oversubscription.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/suites/tcp/records.hpp"
#include "report/model/record.hpp"

namespace gpunet::bench::tcp {

// A leaf switch of the fabric file: its uplink's far end, the hosts below it, its LinkSpeed=.
struct FabricLeafInfo {
  std::string leaf, parent;
  std::vector<std::string> hosts;
  std::optional<double> link_speed;  // as written in the file (read as Gb/s)
};

// One leaf's turn: its participants (inside), the flows (both directions of each pair), or why it
// cannot run (skip: no participant below it, or none in another rack).
struct UplinkRun {
  std::string leaf, parent;
  std::optional<double> link_speed;
  std::vector<int> inside;  // participant indices below the leaf
  std::vector<FlowSpec> flows;
  std::string skip;
};

// One run per leaf with an uplink, in file order. `hosts`: each participant's host name.
std::vector<UplinkRun> uplink_runs(const std::vector<FabricLeafInfo>& leaves, const std::vector<std::string>& hosts);

// The uplink's record from its flows' records (one per flow of `test`, in order; rank 0's). `base`
// carries the suite, name, rank and host. Passed with the figure when every flow ran and every
// flow's ceiling is known; failed when a flow failed; skipped when the ceilings are unknown.
report::Record uplink_record(report::Record base, const UplinkRun& run, const BandwidthTest& test,
                             const std::vector<report::Record>& flow_records, const std::vector<Node>& nodes);

}  // namespace gpunet::bench::tcp
