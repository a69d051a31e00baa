// Rails: the --tcp-if list, which interfaces "rails" means, where a slowness lies, and the records
// and findings of a run on several rails.
#include <gtest/gtest.h>

#include <sys/socket.h>

#include "bench/suites/tcp/rail_findings.hpp"
#include "bench/suites/tcp/rails.hpp"
#include "bench/suites/tcp/records.hpp"
#include "report/model/figure.hpp"

using namespace gpunet::bench::tcp;
using namespace gpunet::bench::net;
using gpunet::report::Status;

namespace {

IfAddress rail_addr(const std::string& iface, const std::string& ip, bool up = true) {
  IfAddress a;
  a.iface = iface;
  a.ip = *parse_ip(ip);
  a.up = up;
  a.loopback = iface == "lo";
  return a;
}

std::vector<Node> rail_nodes(int rail, int n) {
  std::vector<Node> nodes;
  for (int i = 0; i < n; ++i) {
    Node node;
    node.rank = i;
    node.host = "node" + std::to_string(i);
    node.endpoint.ip = *parse_ip("10.77." + std::to_string(rail) + "." + std::to_string(i + 1));
    node.endpoint.port = static_cast<uint16_t>(40000 + i);
    node.link.iface = "eth" + std::to_string(rail);
    node.link.mtu = 1500;
    node.iface = node.link.iface;
    node.rail = rail;
    nodes.push_back(node);
  }
  return nodes;
}

// Every direction of host h with the others, slow.
std::vector<Cell> slow_with(int h, int n) {
  std::vector<Cell> cells;
  for (int o = 0; o < n; ++o)
    if (o != h) {
      cells.push_back({h, o, 0.2e9, std::nullopt, Status::passed});
      cells.push_back({o, h, 0.2e9, std::nullopt, Status::passed});
    }
  return cells;
}

std::vector<std::string> reasons(const std::vector<gpunet::report::Record>& recs) {
  std::vector<std::string> out;
  for (const auto& r : recs) out.push_back(r.reason);
  return out;
}

}  // namespace

TEST(TcpIfaceList, NamesCidrsAndRails) {
  using List = std::vector<std::string>;
  EXPECT_EQ(std::get<List>(parse_iface_list("")), List{});
  EXPECT_EQ(std::get<List>(parse_iface_list("eth0")), List{"eth0"});
  EXPECT_EQ(std::get<List>(parse_iface_list("eth0,eth1")), (List{"eth0", "eth1"}));
  EXPECT_EQ(std::get<List>(parse_iface_list("10.0.1.0/24, 10.0.2.0/24")), (List{"10.0.1.0/24", "10.0.2.0/24"}));
  EXPECT_EQ(std::get<List>(parse_iface_list("rails")), List{"rails"});
  EXPECT_NE(std::get<std::string>(parse_iface_list("eth0,,eth1")).find("empty entry"), std::string::npos);
  EXPECT_NE(std::get<std::string>(parse_iface_list("eth0,")).find("empty entry"), std::string::npos);
  EXPECT_NE(std::get<std::string>(parse_iface_list("eth0,eth0")).find("given twice"), std::string::npos);
  EXPECT_NE(std::get<std::string>(parse_iface_list("rails,eth0")).find("stands alone"), std::string::npos);
}

TEST(TcpRails, EveryUpIpv4InterfaceButLoopbackAndControl) {
  const std::vector<IfAddress> all{rail_addr("lo", "127.0.0.1"), rail_addr("ctl0", "10.78.0.2"),
                                   rail_addr("eth1", "10.77.1.2"), rail_addr("eth0", "10.77.0.2"),
                                   rail_addr("eth0", "fd77::2"),   rail_addr("eth2", "10.77.2.2", false)};
  EXPECT_EQ(control_interface(all, ""), "ctl0");
  EXPECT_EQ(control_interface(all, "10.77.1.0/24"), "eth1");
  EXPECT_EQ(rail_interfaces(all, "ctl0"), (std::vector<std::string>{"eth0", "eth1"}));
  EXPECT_EQ(rail_interfaces(all, "eth1"), (std::vector<std::string>{"ctl0", "eth0"}));
}

TEST(TcpRails, LocaliseNicNodeAndRail) {
  using K = RailBlame::Kind;
  // node2 slow on rail 1 only: its rail-1 NIC.
  auto b = localise({{}, {"node2"}}, {false, false});
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].kind, K::nic);
  EXPECT_EQ(b[0].host, "node2");
  EXPECT_EQ(b[0].rail, 1);
  // node2 slow on both rails: the node.
  b = localise({{"node2"}, {"node2"}}, {false, false});
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].kind, K::node);
  // rail 1 slow everywhere: its network, and node2 slow on rail 0 alone of the healthy rails: the node.
  b = localise({{"node2"}, {"node0", "node1", "node2"}}, {false, true});
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].kind, K::rail);
  EXPECT_EQ(b[0].rail, 1);
  EXPECT_EQ(b[1].kind, K::node);
  // One rail: a slow host is the node. Nothing slow: nothing named.
  EXPECT_EQ(localise({{"node1"}}, {false})[0].kind, K::node);
  EXPECT_TRUE(localise({{}, {}}, {false, false}).empty());
}

TEST(TcpRails, RecordsNameTheInterfaceAndRail) {
  const auto nodes = rail_nodes(1, 3);
  BandwidthTest t;
  t.variant = "matrix";
  t.flows = {{0, 2}};
  TestResults res;
  res.sent.resize(3);
  res.received.resize(3);
  res.rejected.resize(3);
  res.sent[0].push_back({static_cast<uint32_t>(nodes[2].rank), Status::passed, "", 1000000, 1.0, {}, {}});
  ReceiveResult rx;
  rx.peer = static_cast<uint32_t>(nodes[0].rank);
  rx.bytes = 1000000;
  rx.seconds = 1.0;
  rx.goodput_bps = 8e6;
  res.received[2].push_back(rx);
  const auto recs = bandwidth_records(t, res, nodes, TcpConfig{}, RunFacts{});
  ASSERT_EQ(recs.size(), 1u);
  ASSERT_TRUE(recs[0].figure);
  EXPECT_EQ(gpunet::report::figure_key(*recs[0].figure), "tcp.goodput|pair:node0/0:eth1->node2/2:eth1|rail=1;streams=1;test=matrix");
  EXPECT_EQ(recs[0].extra.at("rail"), 1);
  EXPECT_EQ(recs[0].extra.at("src_iface"), "eth1");
  // One rail: the subject and key as before rails existed.
  auto one = rail_nodes(0, 3);
  for (auto& n : one) n.iface = "", n.rail = -1;
  const auto plain = bandwidth_records(t, res, one, TcpConfig{}, RunFacts{});
  EXPECT_EQ(gpunet::report::figure_key(*plain[0].figure), "tcp.goodput|pair:node0/0->node2/2|streams=1;test=matrix");
  EXPECT_FALSE(plain[0].extra.contains("rail"));
}

TEST(TcpRails, FindingsNameTheNicTheNodeOrTheRail) {
  const int n = 4;
  const std::vector<std::string> ifaces{"eth0", "eth1"};
  auto on_rail = [&](int rail, const std::vector<Cell>& confirmed) {
    return findings(confirmed, rail_nodes(rail, n), 0.95e9, 0.8, confirmed);
  };
  // node2's eth1 slow: named as host:iface on rail 1, nothing else.
  auto f = rail_findings({on_rail(0, {}), on_rail(1, slow_with(2, n))}, ifaces);
  ASSERT_EQ(f.size(), 1u) << ::testing::PrintToString(reasons(f));
  EXPECT_EQ(f[0].extra.at("finding").at("subject"), "nic");
  EXPECT_EQ(f[0].extra.at("finding").at("iface"), "eth1");
  EXPECT_EQ(f[0].reason.rfind("node2:eth1: rail 1: every pair on rail 1 with it is slow and its other rails are fine", 0), 0u) << f[0].reason;
  EXPECT_NE(f[0].reason.find("suspect eth1's cable, transceiver or switch port"), std::string::npos);
  // node2 slow on both rails: the node.
  f = rail_findings({on_rail(0, slow_with(2, n)), on_rail(1, slow_with(2, n))}, ifaces);
  ASSERT_EQ(f.size(), 1u) << ::testing::PrintToString(reasons(f));
  EXPECT_EQ(f[0].extra.at("finding").at("subject"), "host");
  EXPECT_EQ(f[0].reason.rfind("host node2: every pair with it is slow on every rail (eth0, eth1", 0), 0u) << f[0].reason;
  // Every node slow on rail 1: that rail's network.
  std::vector<Cell> all;
  for (int h = 0; h < n; ++h)
    for (int o = 0; o < n; ++o)
      if (h != o) all.push_back({h, o, 0.2e9, std::nullopt, Status::passed});
  f = rail_findings({on_rail(0, {}), on_rail(1, all)}, ifaces);
  ASSERT_EQ(f.size(), 1u) << ::testing::PrintToString(reasons(f));
  EXPECT_EQ(f[0].extra.at("finding").at("subject"), "network");
  EXPECT_EQ(f[0].reason.rfind("rail 1 (eth1): every node is slow with every other on this rail", 0), 0u) << f[0].reason;
  // One slow pair on rail 0: the pair, with its rail.
  f = rail_findings({on_rail(0, {{0, 1, 0.2e9, std::nullopt, Status::passed}}), on_rail(1, {})}, ifaces);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].reason.rfind("rail 0 (eth0): pair node0 → node1 is slow", 0), 0u) << f[0].reason;
}
