// Construction of the scaling groups (whole nodes, 1, 2, 4, ...), the drop detection, and the
// probes that single out the node behind a drop.
#include <gtest/gtest.h>

#include "bench/engines/scaling.hpp"

using namespace gpunet::bench;

TEST(Scaling, NodeCountsDoubleAndEndAtTheNodeCount) {
  EXPECT_EQ(scaling_node_counts(1), (std::vector<int>{1}));
  EXPECT_EQ(scaling_node_counts(2), (std::vector<int>{1, 2}));
  EXPECT_EQ(scaling_node_counts(4), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(scaling_node_counts(6), (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(scaling_node_counts(9), (std::vector<int>{1, 2, 4, 8, 9}));
  EXPECT_EQ(scaling_node_counts(16), (std::vector<int>{1, 2, 4, 8, 16}));
  EXPECT_TRUE(scaling_node_counts(0).empty());
}

TEST(Scaling, GroupsAreTheFirstNodesAndSayWhichWereAdded) {
  const auto g = scaling_groups(6);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g[0].nodes, (std::vector<int>{0}));
  EXPECT_EQ(g[0].added, (std::vector<int>{0}));
  EXPECT_EQ(g[1].nodes, (std::vector<int>{0, 1}));
  EXPECT_EQ(g[1].added, (std::vector<int>{1}));
  EXPECT_EQ(g[2].nodes, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(g[2].added, (std::vector<int>{2, 3}));
  EXPECT_EQ(g[3].added, (std::vector<int>{4, 5}));
  for (const auto& x : g) EXPECT_FALSE(x.probe);
}

TEST(Scaling, RanksOfWholeNodesWithUnevenRanksPerNode) {
  // ranks 0,1 on node 0; 2 on node 1; 3,4,5 on node 2; 6 on node 0 again (a scattered mapping)
  const std::vector<int> node_of_rank{0, 0, 1, 2, 2, 2, 0};
  EXPECT_EQ(ranks_of_nodes(node_of_rank, {0}), (std::vector<int>{0, 1, 6}));
  EXPECT_EQ(ranks_of_nodes(node_of_rank, {0, 2}), (std::vector<int>{0, 1, 3, 4, 5, 6}));
  EXPECT_EQ(ranks_of_nodes(node_of_rank, {1, 0, 2}).size(), 7u);
  EXPECT_TRUE(ranks_of_nodes(node_of_rank, {5}).empty());
}

TEST(Scaling, DropIsMeasuredAgainstTheBestMultiNodePoint) {
  // The single-node point (intra-node, no network) is never the baseline.
  EXPECT_FALSE(find_scaling_drop({1, 2, 4}, {300.0, 20.0, 19.0}, 0.8));
  const auto d = find_scaling_drop({1, 2, 4, 8}, {300.0, 20.0, 22.0, 11.0}, 0.8);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->best_before, 2u);
  EXPECT_EQ(d->after, 3u);
  EXPECT_DOUBLE_EQ(d->ratio, 0.5);
  EXPECT_FALSE(find_scaling_drop({1, 2, 4, 8}, {0, 20.0, 17.0, 16.5}, 0.8));  // within 80% of the best
  EXPECT_FALSE(find_scaling_drop({1}, {0}, 0.8));
}

TEST(Scaling, ProbesAddOneNodeEachToTheBestGroup) {
  const auto groups = scaling_groups(8);
  const auto probes = probe_groups(groups[1], groups[3]);  // best: 2 nodes; dropped: 8 nodes
  ASSERT_EQ(probes.size(), 6u);
  EXPECT_EQ(probes[0].nodes, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(probes[5].nodes, (std::vector<int>{0, 1, 7}));
  EXPECT_EQ(probes[5].added, (std::vector<int>{7}));
  EXPECT_TRUE(probes[0].probe);
  EXPECT_EQ(nodes_added(groups[1], groups[3]), (std::vector<int>{2, 3, 4, 5, 6, 7}));
  // One node added: no probe needed, it is the culprit.
  EXPECT_TRUE(probe_groups(groups[0], groups[1]).empty());
}

TEST(Scaling, CulpritIsTheProbeThatDrops) {
  EXPECT_EQ(culprit_probe({20.0, 5.0}, 20.0, 0.8), std::optional<size_t>(1));
  EXPECT_EQ(culprit_probe({4.0, 19.0, 20.0}, 20.0, 0.8), std::optional<size_t>(0));
  EXPECT_FALSE(culprit_probe({19.0, 18.0}, 20.0, 0.8));  // nobody alone explains the drop
  EXPECT_FALSE(culprit_probe({}, 20.0, 0.8));
}

TEST(Scaling, PeakIgnoresTheSingleNodePoint) {
  EXPECT_EQ(scaling_peak({1, 2, 4}, {500.0, 20.0, 30.0}), std::optional<size_t>(2));
  EXPECT_FALSE(scaling_peak({1}, {500.0}));
}
