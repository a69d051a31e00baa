// Who talks to whom: pure pair schedules over n participants (nodes, or ranks on one node).
// Shared by the point-to-point suites (TCP now, RDMA later).
#pragma once

#include <cstdint>
#include <string>
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

// Each participant against at least k random partners (every pair when k >= n − 1), the same for the
// same seed on every machine: random rings (each adds two partners to everyone), a random matching for
// an odd k, then partners for whoever the rings' repeats left short. Pairs as (smaller, larger), no repeats,
// in an order that disjoint_rounds packs into about k + 1 rounds.
std::vector<Pair> random_pairs(int n, int k, uint64_t seed);

// The matrix's rounds for a pair strategy: "all" (all_pairs_rounds), "ring" (neighbour_pairs) or
// "random" (random_pairs with k and seed), each in rounds of disjoint pairs.
std::vector<Round> strategy_rounds(int n, const std::string& strategy, int k, uint64_t seed);

// The number of distinct pairs in rounds.
int pair_count(const std::vector<Round>& rounds);

}  // namespace gpunet::bench
