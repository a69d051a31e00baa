// The congestion test's roles (pure): which participants are victims, which congest, and the
// congestors' flows. GPCNeT's method with this suite's flows: a few victim pairs are measured alone
// and again while every other participant congests the network.
//
// The choice, for n >= 4 participants in rank order:
//   victims     max(1, n / 10) pairs (about 20 % of the participants, at least one pair), spread over
//               the rank order: pair k is (k·s, k·s + s/2) with s = n / pairs, so on racks filled in
//               rank order a victim pair spans two racks. src sends the victim's bandwidth flow to dst.
//               When the racks are known (--fabric) and that dst shares src's rack, dst is the next
//               participant after it in another rack (and not another pair's), so the pair crosses
//               the uplinks.
//   congestors  every other participant.
//   incast      each congestor sends one flow into a victim's receiver (congestor i into victim
//               i mod pairs): the victim's receiving link is the path the congestors share with it,
//               so its congestion shows on any fabric, a flat switch included.
//   all-to-all  congestors in consecutive groups of at most kAllToAllGroup send to every other
//               member of their group (bounded: a 1,000-node run does not open a million flows).
#pragma once

#include <string>
#include <vector>

#include "bench/suites/tcp/records.hpp"

namespace gpunet::bench::tcp {

inline constexpr int kCongestionMinParticipants = 4;
inline constexpr int kAllToAllGroup = 8;

struct CongestionPlan {
  std::vector<FlowSpec> victims;     // src -> dst: the victim's bandwidth flow; dst is an incast target
  std::vector<int> congestors;       // participant indices, ascending
  std::vector<FlowSpec> incast;      // congestor -> a victim's receiver
  std::vector<FlowSpec> all_to_all;  // congestor -> congestor in its group
  std::string why_not;               // non-empty when the test cannot run (fewer than 4 participants)
};

// rack_of: each participant's rack (leaf) index, -1 when the fabric does not place it; empty when
// the fabric is unknown.
CongestionPlan congestion_plan(int participants, const std::vector<int>& rack_of = {});

// Every congestor flow (incast, then all-to-all).
std::vector<FlowSpec> congestor_flows(const CongestionPlan& plan);

}  // namespace gpunet::bench::tcp
