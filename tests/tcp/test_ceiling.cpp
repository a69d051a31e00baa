#include <gtest/gtest.h>

#include "bench/tcp/ceiling.hpp"

using namespace gpunet::bench::tcp;

TEST(TcpCeiling, EthernetTableOfCeilingsMd) {
  // CEILINGS.md §1.3: 10GbE, MTU 1500, IPv4, timestamps: 10 × 1448/1538.
  EXPECT_NEAR(tcp_goodput_ceiling(10e9, 1500, false, true, kEthernetWireFraming), 9.41482e9, 1e4);
  EXPECT_NEAR(tcp_goodput_ceiling(10e9, 1500, false, false, kEthernetWireFraming) / 10e9, 0.94928, 1e-5);
  EXPECT_NEAR(tcp_goodput_ceiling(10e9, 1500, true, true, kEthernetWireFraming) / 10e9, 0.92848, 1e-5);
  EXPECT_NEAR(tcp_goodput_ceiling(10e9, 9000, false, true, kEthernetWireFraming) / 10e9, 0.99004, 1e-5);
  EXPECT_NEAR(tcp_goodput_ceiling(100e9, 9000, true, false, kEthernetWireFraming) / 1e9, 98.92, 0.01);
}

TEST(TcpCeiling, TbfCountsTheEthernetHeaderOnly) {
  // 1 Gbit/s tbf, MTU 1500, IPv4 + timestamps: 1448 payload bytes per 1514 counted.
  EXPECT_NEAR(tcp_goodput_ceiling(1e9, 1500, false, true, kTbfFraming), 1e9 * 1448.0 / 1514.0, 1e-3);
  EXPECT_NEAR(tcp_goodput_ceiling(1e9, 1500, false, true, kTbfFraming) / 1e9, 0.9564, 1e-4);
}

TEST(TcpCeiling, TinyMtuCarriesNothing) {
  EXPECT_EQ(tcp_payload_per_packet(52, false, true), 0);
  EXPECT_EQ(tcp_goodput_ceiling(1e9, 52, false, true, kTbfFraming), 0.0);
  EXPECT_EQ(tcp_payload_per_packet(1500, true, false), 1440);
}

TEST(TcpCeiling, LinkCeilingSources) {
  LinkFacts l;
  l.iface = "eth0";
  l.mtu = 1500;
  l.driver = "mlx5_core";
  l.speed_Mbps = 10000;
  auto c = link_ceiling(l);
  ASSERT_TRUE(c.goodput_bps);
  EXPECT_NEAR(*c.goodput_bps, 9.41482e9, 1e4);
  EXPECT_NE(c.derivation.find("eth0 Ethernet 10 Gb/s, MTU 1500, IPv4, TCP timestamps"), std::string::npos) << c.derivation;

  l.shaped_rate_bps = 1e9;  // tbf wins over the NIC speed
  c = link_ceiling(l);
  ASSERT_TRUE(c.goodput_bps);
  EXPECT_NEAR(*c.goodput_bps, 1e9 * 1448.0 / 1514.0, 1);
  EXPECT_NE(c.derivation.find("tbf"), std::string::npos);

  l.stated_rate_bps = 25e9;  // a stated rate wins over both
  c = link_ceiling(l);
  ASSERT_TRUE(c.goodput_bps);
  EXPECT_NEAR(*c.goodput_bps, 25e9 * 1448.0 / 1538.0, 1);
}

TEST(TcpCeiling, UnknownCeilingsSayWhy) {
  LinkFacts lo;
  lo.iface = "lo";
  lo.mtu = 65536;
  lo.loopback = true;
  auto c = link_ceiling(lo);
  EXPECT_FALSE(c.goodput_bps);
  EXPECT_NE(c.derivation.find("loopback"), std::string::npos);

  LinkFacts veth;
  veth.iface = "eth0";
  veth.mtu = 1500;
  veth.driver = "veth";
  veth.speed_Mbps = 10000;  // veth claims 10G; it is not a wire rate
  c = link_ceiling(veth);
  EXPECT_FALSE(c.goodput_bps);
  EXPECT_NE(c.derivation.find("--link-rate"), std::string::npos);

  LinkFacts nospeed;
  nospeed.iface = "eno1";
  nospeed.mtu = 1500;
  c = link_ceiling(nospeed);
  EXPECT_FALSE(c.goodput_bps);
}

TEST(TcpCeiling, PairTakesTheSlowerEnd) {
  LinkFacts a, b;
  a.iface = b.iface = "eth0";
  a.mtu = b.mtu = 1500;
  a.shaped_rate_bps = 1e9;
  b.shaped_rate_bps = 250e6;
  const auto c = pair_ceiling(a, b);
  ASSERT_TRUE(c.goodput_bps);
  EXPECT_NEAR(*c.goodput_bps, 250e6 * 1448.0 / 1514.0, 1);
  b.shaped_rate_bps = 0;
  b.loopback = true;
  EXPECT_FALSE(pair_ceiling(a, b).goodput_bps);
}

TEST(TcpCeiling, FormatRate) {
  EXPECT_EQ(format_rate(1e9), "1 Gb/s");
  EXPECT_EQ(format_rate(250e6), "250 Mb/s");
  EXPECT_EQ(format_rate(2.5e9), "2.5 Gb/s");
}
