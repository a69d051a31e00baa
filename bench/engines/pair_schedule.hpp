// Who talks to whom: pure pair schedules over n participants (nodes, or ranks on one node).
// Shared by the point-to-point suites (TCP now, RDMA later).
#pragma once

#include <vector>

namespace gpunet::bench {

struct Pair {
  int a = 0, b = 0;
  bool operator==(const Pair&) const = default;
};
using Round = std::vector<Pair>;

// Every unordered pair exactly once, in rounds of disjoint pairs (the circle method):
// n − 1 rounds of n/2 pairs for even n; n rounds with one participant idle each for odd n.
std::vector<Round> all_pairs_rounds(int n);

// Ring neighbours (i, i+1 mod n); for n = 2 the single pair (0, 1); none for n < 2.
std::vector<Pair> neighbour_pairs(int n);

// Packs pairs into rounds in which no participant appears twice, keeping their order (greedy).
std::vector<Round> disjoint_rounds(const std::vector<Pair>& pairs);

}  // namespace gpunet::bench
