#include <gtest/gtest.h>

#include <set>

#include "bench/engines/pair_schedule.hpp"

using namespace gpunet::bench;

namespace {
// Every round disjoint; every unordered pair exactly once overall.
void expect_all_pairs_once(const std::vector<Round>& rounds, int n) {
  std::set<std::pair<int, int>> seen;
  for (const auto& r : rounds) {
    std::set<int> busy;
    for (const auto& p : r) {
      ASSERT_LT(p.a, p.b);
      ASSERT_GE(p.a, 0);
      ASSERT_LT(p.b, n);
      EXPECT_TRUE(busy.insert(p.a).second) << "participant " << p.a << " twice in a round";
      EXPECT_TRUE(busy.insert(p.b).second) << "participant " << p.b << " twice in a round";
      EXPECT_TRUE(seen.insert({p.a, p.b}).second) << "pair " << p.a << "," << p.b << " twice";
    }
  }
  EXPECT_EQ(static_cast<int>(seen.size()), n * (n - 1) / 2);
}
}  // namespace

TEST(PairSchedule, CircleMethodEvenAndOdd) {
  for (int n = 2; n <= 9; ++n) {
    const auto rounds = all_pairs_rounds(n);
    EXPECT_EQ(static_cast<int>(rounds.size()), n % 2 == 0 ? n - 1 : n) << n;
    for (const auto& r : rounds) EXPECT_EQ(static_cast<int>(r.size()), n / 2) << n;
    expect_all_pairs_once(rounds, n);
  }
  EXPECT_TRUE(all_pairs_rounds(1).empty());
  EXPECT_TRUE(all_pairs_rounds(0).empty());
}

TEST(PairSchedule, FourNodesInThreeRounds) {
  const auto rounds = all_pairs_rounds(4);
  ASSERT_EQ(rounds.size(), 3u);
  EXPECT_EQ(rounds[0], (Round{{0, 3}, {1, 2}}));
}

TEST(PairSchedule, Neighbours) {
  EXPECT_TRUE(neighbour_pairs(1).empty());
  EXPECT_EQ(neighbour_pairs(2), (std::vector<Pair>{{0, 1}}));
  EXPECT_EQ(neighbour_pairs(4), (std::vector<Pair>{{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
}

TEST(PairSchedule, DisjointRoundsPackGreedily) {
  const auto even = disjoint_rounds(neighbour_pairs(4));
  ASSERT_EQ(even.size(), 2u);
  EXPECT_EQ(even[0], (Round{{0, 1}, {2, 3}}));
  EXPECT_EQ(even[1], (Round{{1, 2}, {3, 0}}));
  const auto odd = disjoint_rounds(neighbour_pairs(5));  // a ring of 5 needs 3 rounds
  ASSERT_EQ(odd.size(), 3u);
  size_t total = 0;
  for (const auto& r : odd) {
    std::set<int> busy;
    for (const auto& p : r) {
      EXPECT_TRUE(busy.insert(p.a).second);
      EXPECT_TRUE(busy.insert(p.b).second);
    }
    total += r.size();
  }
  EXPECT_EQ(total, 5u);
}
