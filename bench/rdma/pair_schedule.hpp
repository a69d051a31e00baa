// All-pairs schedule: rounds of disjoint rank pairs, each unordered pair exactly once, so that every
// pair of N ranks is measured in N-1 rounds (N even; N rounds with one rank idle each when N is odd).
//
// STAND-IN: the TCP suite's pair scheduler (branch tcp, bench/tcp/) is the one both suites must share.
// Until it is on main this file provides the same contract (circle method, round-robin); when it
// lands, the RDMA suite switches to it and this file goes.
#pragma once

#include <optional>
#include <vector>

namespace gpunet::bench::rdma {

struct RankPair {
  int a = 0, b = 0;  // a < b
  friend bool operator==(const RankPair&, const RankPair&) = default;
};

using Round = std::vector<RankPair>;

std::vector<Round> round_robin_rounds(int n);

// The partner of `rank` in `round`, if it has one.
std::optional<int> partner_in(const Round& round, int rank);

}  // namespace gpunet::bench::rdma
