#include <gtest/gtest.h>

#include <set>

#include "bench/suites/tcp/retest_plan.hpp"

using namespace gpunet::bench::tcp;

namespace {

// The directions of a sampled matrix in which `slow` is slow both ways with each of its partners.
struct Sample {
  std::vector<FlowSpec> suspects, passed;
};
Sample sample(const std::vector<std::pair<int, int>>& pairs, int slow) {
  Sample s;
  for (const auto& [a, b] : pairs)
    for (const FlowSpec f : {FlowSpec{a, b}, FlowSpec{b, a}}) (a == slow || b == slow ? s.suspects : s.passed).push_back(f);
  return s;
}

void expect_disjoint(const RetestPlan& p) {
  for (const auto& round : p.rounds) {
    std::set<std::pair<int, int>> pairs;
    std::set<int> ends;
    for (const auto& f : round) pairs.insert({std::min(f.src, f.dst), std::max(f.src, f.dst)});
    for (const auto& [a, b] : pairs) EXPECT_TRUE(ends.insert(a).second && ends.insert(b).second) << "an end twice in a round";
  }
}

}  // namespace

TEST(RetestPlan, ASlowNodeIsAlsoTestedAgainstPartnersThatPassed) {
  // Ring 0-1-2-3-4-5-0 with node 0 slow: 0 met 1 and 5 only.
  const auto s = sample({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}}, 0);
  const auto p = plan_retests(6, s.suspects, s.passed, 10);
  // Node 0 never sent or received well: one new partner for each side, neither 1 nor 5, both fine.
  ASSERT_EQ(p.against_passed.size(), 2u);
  EXPECT_EQ(p.against_passed[0].src, 0);
  EXPECT_EQ(p.against_passed[1].dst, 0);
  for (const auto& f : p.against_passed) {
    const int g = f.src == 0 ? f.dst : f.src;
    EXPECT_TRUE(g == 2 || g == 3 || g == 4) << g;
  }
  EXPECT_NE(p.against_passed[0].dst, p.against_passed[1].src) << "two different partners";
  // Nodes 1 and 5 sent and received well with others: no new partner for them.
  std::set<std::pair<int, int>> all;
  for (const auto& round : p.rounds)
    for (const auto& f : round) all.insert({f.src, f.dst});
  for (const auto& f : s.suspects) EXPECT_TRUE(all.count({f.src, f.dst})) << "each suspect re-tested with its own partner";
  EXPECT_EQ(all.size(), s.suspects.size() + 2);
  EXPECT_TRUE(p.left_out.empty());
  expect_disjoint(p);
}

TEST(RetestPlan, DisjointPairsShareRoundsAndTheCapListsTheRest) {
  // All pairs of 8 with three bad cables far apart, plus node 7 slow with everyone.
  std::vector<FlowSpec> suspects, passed;
  const std::set<std::pair<int, int>> cables{{0, 1}, {2, 3}, {4, 5}};
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b)
      if (a != b) (cables.count({std::min(a, b), std::max(a, b)}) || a == 7 || b == 7 ? suspects : passed).push_back({a, b});
  const auto p = plan_retests(8, suspects, passed, 3);
  expect_disjoint(p);
  ASSERT_EQ(p.rounds.size(), 3u);
  // The first round holds the three cables and one of node 7's pairs at once (4 = n/2 pairs).
  std::set<std::pair<int, int>> first;
  for (const auto& f : p.rounds[0]) first.insert({std::min(f.src, f.dst), std::max(f.src, f.dst)});
  EXPECT_EQ(first.size(), 4u);
  for (const auto& c : cables) EXPECT_TRUE(first.count(c));
  // Node 7 met everyone (no passed partner left to try); 3 of its 7 pairs fit, 4 pairs (8 directions) are listed.
  EXPECT_TRUE(p.against_passed.empty());
  EXPECT_EQ(p.left_out.size(), 8u);
  size_t planned = 0;
  for (const auto& round : p.rounds) planned += round.size();
  EXPECT_EQ(planned + p.left_out.size(), suspects.size());
}

TEST(RetestPlan, NoPartnerThatPassedMeansNoExtraTest) {
  const auto s = sample({{0, 1}, {1, 2}, {0, 2}}, 2);  // every pair of 3: node 2 met everyone
  const auto p = plan_retests(3, s.suspects, s.passed, 10);
  EXPECT_TRUE(p.against_passed.empty());
  EXPECT_EQ(p.rounds.size(), 2u);
  EXPECT_TRUE(plan_retests(3, {}, s.passed, 10).rounds.empty());
}

TEST(RetestPlan, OneUnmetPartnerServesBothSidesOfTheSlowNode) {
  // Ring 0-1-2-3-0 with node 3 slow: node 3 did not meet node 1, which takes both directions with it.
  const auto s = sample({{0, 1}, {1, 2}, {2, 3}, {3, 0}}, 3);
  const auto p = plan_retests(4, s.suspects, s.passed, 10);
  ASSERT_EQ(p.against_passed.size(), 2u);
  EXPECT_TRUE((p.against_passed[0] == FlowSpec{3, 1} && p.against_passed[1] == FlowSpec{1, 3}) ||
              (p.against_passed[0] == FlowSpec{1, 3} && p.against_passed[1] == FlowSpec{3, 1}));
  expect_disjoint(p);
}
