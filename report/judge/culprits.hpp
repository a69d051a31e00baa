// The culprit first: one sentence per problem, grouped by host, for the end of the console output,
// the top of report.md and the HTML banner. Read from the judgement (failed verdicts, SLOWER figures)
// and what the report already holds: failed flows that all involve one
// host (report/analysis/flow_failures.hpp), a switch uplink that explains every slow pair of the matrix given
// --fabric (report/analysis/fabric_view.hpp) and the findings that name a host or, on several rails, one NIC of
// a host as host:iface (tcp "finding" records, docs/rails.md). A host
// is blamed only where a source names it alone; a pair finding whose hosts include a blamed host is
// left out (the pair shares a flow with the culprit), and so is a host or pair finding whose slow pairs
// the uplink explains. Pure.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "report/judge/judgement.hpp"
#include "report/model/figure.hpp"
#include "report/analysis/direction.hpp"
#include "report/model/record.hpp"

namespace gpunet::report {

// The hosts "What is wrong" blames, each with its sentences joined (a blamed NIC, host:iface, lists its
// host with "iface: " before the reason): what bad-nodes.txt lists.
struct BadNode {
  std::string host;
  std::string reason;
};

// "What is wrong", worked out once for every output of a pass (report/render/document_parts.hpp):
// the sentences ("fc-node3: every directed pair with it (6) is below 0.9 Gb/s (...); 6 goodput
// figures SLOWER than the baseline (-50 %)", then the problems that name no host; empty when nothing
// is wrong) and the hosts they blame. The contract's verdicts and the baseline comparison come from
// the judgement, the rest from the records.
struct WhatIsWrong {
  std::vector<std::string> sentences;
  std::vector<BadNode> bad_nodes;
};
WhatIsWrong what_is_wrong(const Report& rep, const Judgement& j);
WhatIsWrong what_is_wrong(const Report& rep);  // with the judgement the report stored

// The directed pairs "What is wrong" blames, for colouring them as failing whatever their efficiency:
// a pair whose direction a finding names slow (report/analysis/direction.hpp, NamedSlow), or with a host that
// bad_nodes lists and no finding limits to one direction (a node slow sending is not slow receiving).
class BlamedPairs {
 public:
  explicit BlamedPairs(const Report& rep);
  BlamedPairs(const Report& rep, const std::vector<BadNode>& bad);  // bad: what_is_wrong(...).bad_nodes
  bool operator()(const Subject& pair) const;

 private:
  NamedSlow named_slow_;
  std::unordered_set<std::string> both_ways_;  // a matrix may have hundreds of slow nodes
};

}  // namespace gpunet::report
