// Node-to-node comparison over per-node summaries, and the summary's JSON round trip (how it travels
// over MPI as a string).
#include <gtest/gtest.h>

#include "tests/topology/helpers.hpp"
#include "topology/topology.hpp"

namespace gpunet::topo {
namespace {

NodeSummary node(const std::string& host, std::map<std::string, std::string> props, std::map<std::string, int> mtu = {}) {
  return {host, std::move(props), std::move(mtu)};
}

TEST(CompareNodes, NamesTheNodeThatDiffersFromTheMajority) {
  const std::map<std::string, std::string> good{{"GPU count", "8"},
                                                {"GPU 3 PCIe link", "Gen4 x16"},
                                                {"GPU 3 trained width", "x16"},
                                                {"NIC ens1f0 speed", "100 Gb/s"},
                                                {"NIC ens1f0 driver", "mlx5_core"}};
  auto bad_width = good, bad_nic = good, bad_driver = good;
  bad_width["GPU 3 trained width"] = "x8";
  bad_nic["NIC ens1f0 speed"] = "25 Gb/s";
  bad_driver["NIC ens1f0 driver"] = "bnxt_en";
  const auto findings = compare_nodes({node("n1", good), node("n2", bad_width), node("n3", good), node("n4", bad_nic),
                                       node("n5", good), node("n6", bad_driver), node("n7", good)});
  ASSERT_EQ(findings.size(), 3u);
  for (const auto& f : findings) {
    EXPECT_EQ(f.kind, "node_differs");
    EXPECT_EQ(f.severity, Severity::warning);
    EXPECT_EQ(f.subjects.size(), 1u);
  }
  EXPECT_EQ(findings[0].subjects[0], "n2");
  EXPECT_EQ(findings[0].message, "n2 differs from the other 6 nodes: GPU 3 trained width is x8 there, x16 on the others.");
  EXPECT_EQ(findings[1].subjects[0], "n6");
  EXPECT_NE(findings[1].message.find("NIC ens1f0 driver is bnxt_en there, mlx5_core on the others"), std::string::npos);
  EXPECT_EQ(findings[2].subjects[0], "n4");
  EXPECT_NE(findings[2].message.find("NIC ens1f0 speed is 25 Gb/s there, 100 Gb/s on the others"), std::string::npos);
}

TEST(CompareNodes, GpuCountAndMissingProperties) {
  const auto f = compare_nodes({node("a", {{"GPU count", "8"}, {"GPU 7 model", "10de:20b0"}}),
                                node("b", {{"GPU count", "8"}, {"GPU 7 model", "10de:20b0"}}),
                                node("c", {{"GPU count", "7"}})});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].message, "c differs from the other 2 nodes: GPU 7 model is absent there, 10de:20b0 on the others.");
  EXPECT_EQ(f[1].message, "c differs from the other 2 nodes: GPU count is 7 there, 8 on the others.");
}

TEST(CompareNodes, NoMajorityListsEveryone) {
  const auto f = compare_nodes({node("a", {{"GPU count", "8"}}), node("b", {{"GPU count", "4"}})});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].message, "Nodes disagree on GPU count and no value has a majority: 4 on b; 8 on a.");
  EXPECT_EQ(f[0].subjects, (std::vector<std::string>{"a", "b"}));
}

TEST(CompareNodes, MtuDifferingBetweenNodes) {
  const auto f = compare_nodes({node("a", {}, {{"ens1f0", 9000}, {"eno1", 1500}}), node("b", {}, {{"ens1f0", 9000}}),
                                node("c", {}, {{"ens1f0", 1500}, {"eno1", 1500}})});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, "mtu_mismatch");
  EXPECT_NE(f[0].message.find("The MTU of ens1f0 differs between nodes: 1500 on c; 9000 on a, b"), std::string::npos)
      << f[0].message;
}

TEST(CompareNodes, IdenticalOrSingleNodesGiveNothing) {
  const auto s = node("a", {{"GPU count", "8"}}, {{"eth0", 1500}});
  EXPECT_TRUE(compare_nodes({s}).empty());
  EXPECT_TRUE(compare_nodes({}).empty());
  auto s2 = s;
  s2.hostname = "b";
  EXPECT_TRUE(compare_nodes({s, s2}).empty());
}

TEST(Summary, FromARealTopologyAndJsonRoundTrip) {
  const NodeTopology t = load_topology_file(test::data_file("juwels-cluster-gpu-4xv100.xml"));
  const NodeSummary s = summarize(t);
  EXPECT_EQ(s.hostname, t.hostname);
  EXPECT_EQ(s.properties.at("GPU count"), "4");
  EXPECT_EQ(s.properties.at("NIC count"), "6");
  EXPECT_EQ(s.properties.at("GPU 2 NUMA node"), "1");
  EXPECT_EQ(s.properties.at("GPU 0 model"), "10de:1db1");
  EXPECT_EQ(s.properties.at("NIC ib0 model"), "15b3:1013");
  const std::string wire = gpunet::json(s).dump();
  EXPECT_EQ(gpunet::json::parse(wire).get<NodeSummary>(), s);

  // Two copies of one machine agree; losing a GPU is named.
  NodeTopology fewer = t;
  fewer.hostname = "broken";
  fewer.devices.erase(fewer.devices.begin() + 3);
  NodeSummary a = s, b = s;
  a.hostname = "a";
  b.hostname = "b";
  const auto f = compare_nodes({a, b, summarize(fewer)});
  ASSERT_FALSE(f.empty());
  for (const auto& x : f) EXPECT_EQ(x.subjects, std::vector<std::string>{"broken"}) << x.message;
}

}  // namespace
}  // namespace gpunet::topo
