// The tcp suite's link facts through report's ceiling functions (the ones the analysis uses).
#include <gtest/gtest.h>

#include "bench/suites/tcp/json.hpp"
#include "report/analysis/path_ceilings.hpp"

using namespace gpunet::bench::tcp;
using gpunet::report::link_ceiling;
using gpunet::report::tcp_flow_ceiling;

namespace {

LinkFacts nic(const std::string& iface, int mtu) {
  LinkFacts l;
  l.iface = iface;
  l.mtu = mtu;
  l.driver = "mlx5_core";
  return l;
}

}  // namespace

TEST(TcpLinkCeiling, EthernetTableOfCeilingsMd) {
  // report/CEILINGS.md §1.3: 10GbE, MTU 1500, IPv4, timestamps: 10 × 1448/1538.
  LinkFacts l = nic("eth0", 1500);
  l.speed_Mbps = 10000;
  EXPECT_NEAR(link_ceiling(link_json(l)).value, 9.41482, 1e-5);
  l.tcp_timestamps = false;
  EXPECT_NEAR(link_ceiling(link_json(l)).value / 10, 0.94928, 1e-5);
  l.tcp_timestamps = true;
  l.ipv6 = true;
  EXPECT_NEAR(link_ceiling(link_json(l)).value / 10, 0.92848, 1e-5);
  l.ipv6 = false;
  l.mtu = 9000;
  EXPECT_NEAR(link_ceiling(link_json(l)).value / 10, 0.99004, 1e-5);
}

TEST(TcpLinkCeiling, SourcesOfTheRate) {
  LinkFacts l = nic("eth0", 1500);
  l.speed_Mbps = 10000;
  l.shaped_rate_bps = 1e9;  // tbf counts the Ethernet header only: 1448/1514
  auto c = link_ceiling(link_json(l));
  ASSERT_TRUE(c.known);
  EXPECT_NEAR(c.value, 1448.0 / 1514.0, 1e-9);
  EXPECT_NE(c.derivation.find("tbf"), std::string::npos) << c.derivation;

  l.shaped_rate_bps = 0;
  l.stated_rate_bps = 25e9;  // a stated rate replaces the NIC speed
  c = link_ceiling(link_json(l));
  ASSERT_TRUE(c.known);
  EXPECT_NEAR(c.value, 25 * 1448.0 / 1538.0, 1e-9);
  EXPECT_NE(c.derivation.find("--link-rate"), std::string::npos) << c.derivation;

  l.shaped_rate_bps = 1e9;  // ... but not a shaping below it: the lower bounds the flow
  EXPECT_NEAR(link_ceiling(link_json(l)).value, 1448.0 / 1514.0, 1e-9);
}

TEST(TcpLinkCeiling, UnknownCeilingsSayWhy) {
  LinkFacts lo = nic("lo", 65536);
  lo.loopback = true;
  auto c = link_ceiling(link_json(lo));
  EXPECT_FALSE(c.known);
  EXPECT_NE(c.unknown_reason.find("loopback"), std::string::npos);

  LinkFacts veth = nic("eth0", 1500);
  veth.driver = "veth";
  veth.speed_Mbps = 10000;  // veth claims 10G; it is not a wire rate
  c = link_ceiling(link_json(veth));
  EXPECT_FALSE(c.known);
  EXPECT_NE(c.unknown_reason.find("--link-rate"), std::string::npos);

  LinkFacts nospeed = nic("eno1", 1500);
  EXPECT_FALSE(link_ceiling(link_json(nospeed)).known);
}

TEST(TcpLinkCeiling, AFlowTakesTheSlowerEnd) {
  LinkFacts a = nic("eth0", 1500), b = nic("eth0", 1500);
  a.shaped_rate_bps = 1e9;
  b.shaped_rate_bps = 250e6;
  const auto c = tcp_flow_ceiling(link_json(a), link_json(b), 1, 1);
  ASSERT_TRUE(c.known);
  EXPECT_NEAR(c.value, 0.25 * 1448.0 / 1514.0, 1e-9);
  EXPECT_NE(c.derivation.find("receiver"), std::string::npos) << c.derivation;
  b.shaped_rate_bps = 0;
  b.loopback = true;
  EXPECT_FALSE(tcp_flow_ceiling(link_json(a), link_json(b), 1, 1).known);
}
