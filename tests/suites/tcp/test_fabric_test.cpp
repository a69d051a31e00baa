// The tcp fabric test's pure parts: which flows drive each uplink, and the uplink's record (its
// oversubscription from the flows' goodput and the nodes' link ceilings).
#include <gtest/gtest.h>

#include "bench/suites/tcp/fabric_test.hpp"

using namespace gpunet::bench::tcp;
using gpunet::report::Status;

namespace {

std::vector<Node> fabric_nodes(int n, double rate_bps) {
  std::vector<Node> nodes;
  for (int i = 0; i < n; ++i) {
    Node x;
    x.rank = i;
    x.host = "n" + std::to_string(i);
    x.endpoint.ip = *gpunet::bench::net::parse_ip("10.78.0." + std::to_string(i + 1));
    x.endpoint.port = static_cast<uint16_t>(41000 + i);
    x.link.iface = "eth0";
    x.link.mtu = 1500;
    x.link.shaped_rate_bps = rate_bps;
    nodes.push_back(x);
  }
  return nodes;
}

std::vector<std::string> hosts_of(const std::vector<Node>& nodes) {
  std::vector<std::string> out;
  for (const auto& n : nodes) out.push_back(n.host);
  return out;
}

// Two racks of four under one spine.
std::vector<FabricLeafInfo> two_racks() {
  return {{"leaf0", "spine", {"n0", "n1", "n2", "n3"}, std::nullopt}, {"leaf1", "spine", {"n4", "n5", "n6", "n7"}, 100.0}};
}

// The flow records of a test in which every flow reached `goodput_bps` (failed: the one flow that failed).
std::vector<gpunet::report::Record> flow_records(const BandwidthTest& t, const std::vector<Node>& nodes,
                                                 const std::vector<double>& goodput_bps, int failed = -1) {
  TestResults res;
  res.sent.resize(nodes.size());
  res.received.resize(nodes.size());
  res.rejected.resize(nodes.size());
  for (size_t k = 0; k < t.flows.size(); ++k) {
    const auto& f = t.flows[k];
    SendResult tx;
    tx.peer = static_cast<uint32_t>(nodes[static_cast<size_t>(f.dst)].rank);
    tx.bytes = 1'000'000;
    res.sent[static_cast<size_t>(f.src)].push_back(tx);
    ReceiveResult rx;
    rx.peer = static_cast<uint32_t>(nodes[static_cast<size_t>(f.src)].rank);
    rx.bytes = 1'000'000;
    rx.seconds = 1;
    rx.goodput_bps = goodput_bps[k];
    if (static_cast<int>(k) == failed) {
      rx.status = Status::failed;
      rx.reason = "connection reset";
    }
    res.received[static_cast<size_t>(f.dst)].push_back(rx);
  }
  return bandwidth_records(t, res, nodes, gpunet::bench::TcpConfig{}, RunFacts{});
}

BandwidthTest test_of(const UplinkRun& run) {
  BandwidthTest t;
  t.variant = "fabric";
  t.flows = run.flows;
  t.bidir = true;
  return t;
}

constexpr double kTcp100M = 100e6 * 1448.0 / 1514.0;  // a 100 Mbit/s tbf link's TCP ceiling

}  // namespace

TEST(FabricTest, EveryNodeOfALeafCrossesItsUplinkBothWays) {
  const auto runs = uplink_runs(two_racks(), hosts_of(fabric_nodes(8, 100e6)));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].leaf, "leaf0");
  EXPECT_EQ(runs[0].inside, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(runs[0].flows, (std::vector<FlowSpec>{{0, 4}, {4, 0}, {1, 5}, {5, 1}, {2, 6}, {6, 2}, {3, 7}, {7, 3}}));
  EXPECT_EQ(runs[1].flows.size(), 8u);
  EXPECT_EQ(runs[1].flows[0], (FlowSpec{4, 0}));
  EXPECT_EQ(runs[1].link_speed, 100.0);
  EXPECT_TRUE(runs[0].skip.empty());
}

TEST(FabricTest, PartnersGoRoundRobinAndEmptyRacksAreSkipped) {
  const std::vector<FabricLeafInfo> leaves{{"a", "spine", {"n0", "n1", "n2"}, std::nullopt},
                                           {"b", "spine", {"n3"}, std::nullopt},
                                           {"c", "spine", {"n9"}, std::nullopt}};
  const auto runs = uplink_runs(leaves, {"n0", "n1", "n2", "n3"});
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].flows, (std::vector<FlowSpec>{{0, 3}, {3, 0}, {1, 3}, {3, 1}, {2, 3}, {3, 2}}));
  EXPECT_EQ(runs[2].skip, "no node of the run is below c");
  const auto one_rack = uplink_runs({leaves[0]}, {"n0", "n1"});
  EXPECT_EQ(one_rack[0].skip, "no node of the run is in another rack, so nothing crosses a's uplink");
  EXPECT_TRUE(one_rack[0].flows.empty());
}

TEST(FabricTest, HalfTheNodesSumReadsTwoToOne) {
  const auto nodes = fabric_nodes(8, 100e6);
  const auto run = uplink_runs(two_racks(), hosts_of(nodes))[1];
  const auto t = test_of(run);
  // 4 nodes at 100 Mbit/s into a 200 Mbit/s uplink: each flow gets half its ceiling; leaving is a bit worse.
  std::vector<double> goodput;
  for (size_t k = 0; k < t.flows.size(); ++k) goodput.push_back(kTcp100M / (k % 2 == 0 ? 2.1 : 2.0));
  gpunet::report::Record base;
  base.suite = "tcp";
  base.name = "fabric";
  const auto r = uplink_record(base, run, t, flow_records(t, nodes, goodput), nodes);
  ASSERT_EQ(r.status, Status::passed) << r.reason;
  ASSERT_TRUE(r.figure);
  EXPECT_EQ(r.figure->metric, "fabric.oversubscription");
  EXPECT_NEAR(r.figure->value, 2.1, 1e-9);  // the worse direction: leaving leaf1
  EXPECT_EQ(r.figure->unit, "ratio");
  EXPECT_EQ(r.figure->better, gpunet::report::Better::lower);
  EXPECT_EQ(gpunet::report::subject_key(r.figure->subject), "group:uplink@leaf1/4n");
  EXPECT_EQ(r.variant, "leaf1");
  EXPECT_EQ(r.extra["direction"], "up");
  EXPECT_NEAR(r.extra["nodes_sum_Gbps"].get<double>(), 4 * kTcp100M / 1e9, 1e-9);
  EXPECT_NEAR(r.extra["measured_Gbps"].get<double>(), 4 * kTcp100M / 2.1 / 1e9, 1e-9);
  EXPECT_NEAR(r.extra["down_Gbps"].get<double>(), 4 * kTcp100M / 2.0 / 1e9, 1e-9);
  EXPECT_EQ(r.extra["hosts"], (gpunet::json{"n4", "n5", "n6", "n7"}));
  EXPECT_EQ(r.extra["flows"].size(), 8u);
  EXPECT_DOUBLE_EQ(r.extra["link_speed"].get<double>(), 100);
  EXPECT_EQ(r.extra["summary"], "leaf1 ↔ spine: 2.10:1, 0.18 of 0.38 Gb/s");
}

TEST(FabricTest, AFailedFlowFailsTheUplinkAndUnknownCeilingsSkipIt) {
  const auto nodes = fabric_nodes(8, 100e6);
  const auto run = uplink_runs(two_racks(), hosts_of(nodes))[0];
  const auto t = test_of(run);
  const std::vector<double> full(t.flows.size(), kTcp100M);
  const auto failed = uplink_record({}, run, t, flow_records(t, nodes, full, 3), nodes);
  EXPECT_EQ(failed.status, Status::failed);
  EXPECT_FALSE(failed.figure);
  EXPECT_NE(failed.reason.find("flow n5 -> n1: "), std::string::npos) << failed.reason;
  const auto unknown_nodes = fabric_nodes(8, 0);
  const auto skipped = uplink_record({}, run, t, flow_records(t, unknown_nodes, full), unknown_nodes);
  EXPECT_EQ(skipped.status, Status::skipped);
  EXPECT_EQ(skipped.reason, "the link ceilings of leaf0's nodes are not known (give --link-rate RATE)");
  const auto fine = uplink_record({}, run, t, flow_records(t, nodes, full), nodes);
  ASSERT_TRUE(fine.figure);
  EXPECT_NEAR(fine.figure->value, 1.0, 1e-9);
}
