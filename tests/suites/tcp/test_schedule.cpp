#include <gtest/gtest.h>

#include <algorithm>
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

namespace {
// Every round disjoint, no pair twice, every participant in at least k pairs.
void expect_random_pairs(const std::vector<Round>& rounds, int n, int k) {
  std::set<std::pair<int, int>> seen;
  std::vector<int> degree(static_cast<size_t>(n));
  for (const auto& r : rounds) {
    std::set<int> busy;
    for (const auto& p : r) {
      ASSERT_NE(p.a, p.b);
      ASSERT_GE(std::min(p.a, p.b), 0);
      ASSERT_LT(std::max(p.a, p.b), n);
      EXPECT_TRUE(busy.insert(p.a).second && busy.insert(p.b).second) << "a participant twice in a round";
      EXPECT_TRUE(seen.insert({std::min(p.a, p.b), std::max(p.a, p.b)}).second) << "pair " << p.a << "," << p.b << " twice";
      ++degree[static_cast<size_t>(p.a)];
      ++degree[static_cast<size_t>(p.b)];
    }
  }
  for (int i = 0; i < n; ++i) EXPECT_GE(degree[static_cast<size_t>(i)], std::min(k, n - 1)) << "participant " << i << " of " << n;
}
}  // namespace

TEST(PairSchedule, RandomPairsCoverEveryNodeKTimesInFewDisjointRounds) {
  for (int n : {2, 3, 4, 5, 8, 16, 17, 64, 512})
    for (int k : {1, 2, 3, 4, 7})
      for (uint64_t seed : {0ULL, 7ULL, 123456ULL}) {
        const auto rounds = strategy_rounds(n, "random", k, seed);
        expect_random_pairs(rounds, n, k);
        if (k < n - 1) {
          // Far fewer than all pairs, and in about k + 1 rounds, not n − 1.
          EXPECT_LE(pair_count(rounds), n * k) << n << " " << k;
          EXPECT_LE(static_cast<int>(rounds.size()), 2 * k + 3) << n << " " << k;
        }
      }
}

TEST(PairSchedule, RandomPairsAreTheSameForTheSameSeed) {
  EXPECT_EQ(random_pairs(16, 3, 7), random_pairs(16, 3, 7));
  EXPECT_NE(random_pairs(16, 3, 7), random_pairs(16, 3, 8));
  // A k as large as n − 1: every pair.
  EXPECT_EQ(pair_count(strategy_rounds(6, "random", 5, 1)), 15);
  EXPECT_TRUE(random_pairs(1, 3, 1).empty());
}

TEST(PairSchedule, StrategiesAllAndRing) {
  EXPECT_EQ(strategy_rounds(8, "all", 0, 0), all_pairs_rounds(8));
  const auto ring = strategy_rounds(8, "ring", 0, 0);
  EXPECT_EQ(pair_count(ring), 8);
  EXPECT_EQ(ring.size(), 2u);
  expect_random_pairs(ring, 8, 2);
  EXPECT_EQ(strategy_rounds(7, "ring", 0, 0).size(), 3u);  // an odd ring needs a third round
}
