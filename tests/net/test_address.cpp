#include <gtest/gtest.h>
#include <sys/socket.h>

#include "bench/net/address.hpp"

using namespace gpunet::bench::net;

namespace {
IfAddress addr(const std::string& iface, const std::string& ip, bool up = true) {
  IfAddress a;
  a.iface = iface;
  a.ip = *parse_ip(ip);
  a.up = up;
  a.loopback = iface == "lo";
  a.link_local = ip.rfind("fe80", 0) == 0;
  return a;
}
}  // namespace

TEST(NetAddress, ParseCidr) {
  auto c = parse_cidr("10.77.0.0/24");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->base.family, AF_INET);
  EXPECT_EQ(c->prefix, 24);
  EXPECT_TRUE(cidr_contains(*c, *parse_ip("10.77.0.200")));
  EXPECT_FALSE(cidr_contains(*c, *parse_ip("10.77.1.1")));
  EXPECT_FALSE(cidr_contains(*c, *parse_ip("fd77::1")));
  c = parse_cidr("10.77.0.4/30");
  ASSERT_TRUE(c);
  EXPECT_TRUE(cidr_contains(*c, *parse_ip("10.77.0.7")));
  EXPECT_FALSE(cidr_contains(*c, *parse_ip("10.77.0.8")));
  c = parse_cidr("fd77::/64");
  ASSERT_TRUE(c);
  EXPECT_TRUE(cidr_contains(*c, *parse_ip("fd77::3")));
  EXPECT_FALSE(cidr_contains(*c, *parse_ip("fd78::3")));
  c = parse_cidr("0.0.0.0/0");
  ASSERT_TRUE(c);
  EXPECT_TRUE(cidr_contains(*c, *parse_ip("192.0.2.1")));
  c = parse_cidr("10.0.0.1");  // a bare address is a /32
  ASSERT_TRUE(c);
  EXPECT_EQ(c->prefix, 32);
  for (const char* bad : {"10.0.0.0/33", "10.0.0/24", "fd77::/129", "10.0.0.0/", "10.0.0.0/2x", "eth0"})
    EXPECT_FALSE(parse_cidr(bad)) << bad;
}

TEST(NetAddress, SelectByNamePrefersIpv4) {
  const std::vector<IfAddress> all{addr("lo", "127.0.0.1"), addr("eth0", "fe80::1"), addr("eth0", "fd77::2"),
                                   addr("eth0", "10.77.0.2"), addr("ctl0", "10.78.0.2")};
  auto r = select_address(all, "eth0");
  ASSERT_TRUE(std::holds_alternative<IfAddress>(r));
  EXPECT_EQ(std::get<IfAddress>(r).ip.to_string(), "10.77.0.2");
  r = select_address(all, "fd77::/64");
  ASSERT_TRUE(std::holds_alternative<IfAddress>(r));
  EXPECT_EQ(std::get<IfAddress>(r).ip.to_string(), "fd77::2");
  EXPECT_EQ(std::get<IfAddress>(r).iface, "eth0");
  r = select_address(all, "10.78.0.0/16");
  ASSERT_TRUE(std::holds_alternative<IfAddress>(r));
  EXPECT_EQ(std::get<IfAddress>(r).iface, "ctl0");
}

TEST(NetAddress, SelectIpv6OnlyInterfaceAndErrors) {
  const std::vector<IfAddress> all{addr("lo", "127.0.0.1"), addr("ib0", "fe80::9"), addr("ib0", "fd00::9"),
                                   addr("eth1", "10.0.0.1", false)};
  auto r = select_address(all, "ib0");
  ASSERT_TRUE(std::holds_alternative<IfAddress>(r));
  EXPECT_EQ(std::get<IfAddress>(r).ip.to_string(), "fd00::9");
  r = select_address(all, "eth9");
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_EQ(std::get<std::string>(r), "no interface eth9 with an address on this host (have: lo, ib0, eth1)");
  r = select_address(all, "eth1");
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_NE(std::get<std::string>(r).find("down"), std::string::npos);
  r = select_address(all, "192.168.0.0/16");
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_NE(std::get<std::string>(r).find("192.168.0.0/16"), std::string::npos);
  r = select_address(all, "10.1.2.3/99");
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_NE(std::get<std::string>(r).find("not a valid CIDR"), std::string::npos);
}

TEST(NetAddress, SystemHasLoopback) {
  const auto all = list_addresses();
  const auto r = select_address(all, "127.0.0.0/8");
  ASSERT_TRUE(std::holds_alternative<IfAddress>(r));
  EXPECT_TRUE(std::get<IfAddress>(r).loopback);
}
