// Which way a link is slow or broken, from the pair records themselves. Pure.
//
// A directed TCP flow is bounded by the sender's outgoing rate and the receiver's incoming rate; a
// shaper or policer may limit one direction only (a root tbf shapes only what a host sends). These
// functions read the evidence: flows into a host that ran above its own shaper, a host slow in one
// direction only, and failed flows that all involve one host.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::report {

// A passed flow runs this far above a ceiling before it counts as evidence that the ceiling's shaper
// does not bound it (a tbf burst lets a flow run a little above its rate; this is far beyond it).
inline constexpr double kShaperRefutedAbove = 1.10;

// Hosts whose root tbf does not bound what they receive: a passed tcp_flow record into the host ran
// above `tolerance` x the receiver's incoming ceiling as that shaper sets it (its receiving share
// included). The analysis then takes their shaper as egress only (tcp_flow_ceiling).
std::set<std::string> hosts_receiving_above_shaper(const std::vector<Record>& results,
                                                   double tolerance = kShaperRefutedAbove);

// One measured direction between two hosts.
struct DirectedRate {
  std::string src, dst;
  double Gbps = 0;
};

// When `host` is slow in one direction only: "slow sending: 3 of 3 flows from it at 0.286 Gb/s,
// flows into it at 0.947 Gb/s" (or "slow receiving: ... flows into it ..., flows from it at ...").
// `slow`: the directions confirmed slow; `all`: every measured direction (rates as medians). Empty
// when the host is slow both ways, or in neither.
std::string one_way_slowness(const std::string& host, const std::vector<DirectedRate>& slow,
                             const std::vector<DirectedRate>& all);

// Whether a tcp finding names a pair's direction slow: a host finding on its sender (slow sending or
// both ways) or its receiver (slow receiving or both ways), or a pair finding on it. Tables colour such
// a figure by that verdict, not by its efficiency against a ceiling the fault itself sets. The findings
// are read once, when it is built; asking costs a lookup (a million pairs are asked at 1,024 hosts).
class NamedSlow {
 public:
  explicit NamedSlow(const std::vector<Record>& results);
  bool operator()(const Subject& pair) const;

 private:
  std::set<std::pair<std::string, std::string>> pairs_;  // (sender, receiver)
  std::set<std::string> sending_, receiving_;            // a host slow both ways is in both
};

}  // namespace gpunet::report
