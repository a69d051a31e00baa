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
// in an order that disjoint_rounds packs into about k + 1 rounds. With `groups` (each participant's
// group, e.g. its leaf switch; < 0 when not known) naming two groups or more, the first rings alternate:
// one edge between two groups, the next inside one, wherever the groups allow; so about half of each
// node's partners are in other groups (all of them for k = 1: the odd matching crosses) and half in its
// own, and a slow link between groups shows beside the same nodes' pairs inside them. Only as many
// rings as a group holds new partners for ((mean group size − 1) / 2, at least one) are drawn so; the
// rest, plainly random, mostly cross. Without groups, the same pairs as before.
std::vector<Pair> random_pairs(int n, int k, uint64_t seed, const std::vector<int>& groups = {});

// The matrix's rounds for a pair strategy: "all" (all_pairs_rounds), "ring" (neighbour_pairs) or
// "random" (random_pairs with k, seed and groups), each in rounds of disjoint pairs.
std::vector<Round> strategy_rounds(int n, const std::string& strategy, int k, uint64_t seed,
                                   const std::vector<int>& groups = {});

// The number of distinct pairs in rounds.
int pair_count(const std::vector<Round>& rounds);

// Whether groups names two different known groups or more (group < 0: not known): what random_pairs
// needs to draw by group.
bool names_two_groups(const std::vector<int>& groups);

// The pairs of rounds whose ends sit in two different known groups (group < 0: not known).
int pairs_between_groups(const std::vector<Round>& rounds, const std::vector<int>& groups);

}  // namespace gpunet::bench
