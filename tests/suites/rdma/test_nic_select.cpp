// The RDMA device's PCI facts from a built sysfs tree, and the choice of a port from a discovery.
#include <gtest/gtest.h>

#include "bench/suites/rdma/engine.hpp"
#include "bench/suites/rdma/nic_sysfs.hpp"
#include "tests/suites/rdma/sysfs_tree.hpp"

using namespace gpunet::bench::rdma;
using gpunet::test::SysfsTree;

TEST(NicSysfs, ReadsBusIdNumaAndLinkThroughTheDeviceLink) {
  SysfsTree t;
  const std::string pci = "devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0";
  t.write(pci + "/numa_node", "1\n");
  t.write(pci + "/current_link_speed", "8.0 GT/s PCIe\n");
  t.write(pci + "/current_link_width", "8\n");
  t.write(pci + "/max_link_speed", "16.0 GT/s PCIe\n");
  t.write(pci + "/max_link_width", "16\n");
  t.link("class/infiniband/mlx5_0/device", "../../../" + pci);
  const NicPci n = read_nic_pci(t.root(), "mlx5_0");
  EXPECT_EQ(n.bus_id, "0000:3b:00.0");
  EXPECT_EQ(n.numa_node, 1);
  EXPECT_EQ(n.gen, 3);
  EXPECT_EQ(n.width, 8);
  EXPECT_EQ(n.max_gen, 4);
  EXPECT_EQ(n.max_width, 16);
}

TEST(NicSysfs, UnknownsStayUnknown) {
  SysfsTree t;
  t.write("devices/virtual/rxe/numa_node", "-1\n");
  t.link("class/infiniband/rxe0/device", "../../../devices/virtual/rxe");
  const NicPci n = read_nic_pci(t.root(), "rxe0");
  EXPECT_EQ(n.bus_id, "");
  EXPECT_EQ(n.numa_node, -1);
  EXPECT_EQ(n.gen, 0);
  EXPECT_EQ(read_nic_pci(t.root(), "absent").numa_node, -1);
}

TEST(NicSysfs, PcieGenFromText) {
  EXPECT_EQ(pcie_gen_from_text("2.5 GT/s PCIe"), 1);
  EXPECT_EQ(pcie_gen_from_text("5.0 GT/s PCIe"), 2);
  EXPECT_EQ(pcie_gen_from_text("16 GT/s"), 4);  // kernels before 5.7
  EXPECT_EQ(pcie_gen_from_text("32.0 GT/s PCIe"), 5);
  EXPECT_EQ(pcie_gen_from_text("64.0 GT/s PCIe"), 6);
  EXPECT_FALSE(pcie_gen_from_text("Unknown"));
  EXPECT_FALSE(pcie_gen_from_text("12.0 GT/s PCIe"));
}

TEST(NicSysfs, NetdevSpeed) {
  SysfsTree t;
  t.write("class/net/eth2/speed", "100000\n");
  t.write("class/net/eth3/speed", "-1\n");
  EXPECT_EQ(netdev_speed_Mbps(t.root(), "eth2"), 100000);
  EXPECT_FALSE(netdev_speed_Mbps(t.root(), "eth3"));
  EXPECT_FALSE(netdev_speed_Mbps(t.root(), "eth4"));
  EXPECT_FALSE(netdev_speed_Mbps(t.root(), ""));
}

namespace {

PortEntry port(int n, int state) {
  PortAttrCodes a;
  a.state = state;
  a.link_layer = 2;
  return {n, convert_port_attr(a)};
}

Discovery two_devices(int state0, int state1) {
  Discovery d;
  d.built_with_verbs = true;
  d.devices.push_back({"mlx5_0", {}, {port(1, state0)}, ""});
  d.devices.push_back({"mlx5_1", {}, {port(1, state1), port(2, 4)}, ""});
  return d;
}

}  // namespace

TEST(SelectPort, SkipsWithTheReason) {
  EXPECT_EQ(select_port(Discovery{}, "").reason, "built without libibverbs");
  Discovery none;
  none.built_with_verbs = true;
  auto s = select_port(none, "");
  EXPECT_EQ(s.kind, PortSelection::Kind::skip);
  EXPECT_EQ(s.reason, "no RDMA devices");
  EXPECT_EQ(select_port(none, "mlx5_0").reason, "no RDMA devices");
  Discovery down;
  down.built_with_verbs = true;
  down.devices.push_back({"mlx5_0", {}, {port(1, 1), port(2, 2)}, ""});
  s = select_port(down, "");
  EXPECT_EQ(s.kind, PortSelection::Kind::skip);
  EXPECT_EQ(s.reason, "no active RDMA port (mlx5_0:1 DOWN, mlx5_0:2 INIT)");
}

TEST(SelectPort, FirstActivePortByDefault) {
  const Discovery d = two_devices(1, 4);
  const auto s = select_port(d, "");
  ASSERT_EQ(s.kind, PortSelection::Kind::use);
  EXPECT_EQ(s.device, "mlx5_1");
  EXPECT_EQ(s.port, 1);
  EXPECT_EQ(s.entry, &d.devices[1]);
  EXPECT_EQ(s.reason, "first ACTIVE port");
}

TEST(SelectPort, NamedDeviceAndPort) {
  const Discovery d = two_devices(4, 1);
  auto s = select_port(d, "mlx5_1");
  ASSERT_EQ(s.kind, PortSelection::Kind::use);
  EXPECT_EQ(s.port, 2);  // port 1 is down: the device's first ACTIVE port
  s = select_port(d, "mlx5_1:2");
  ASSERT_EQ(s.kind, PortSelection::Kind::use);
  EXPECT_EQ(s.reason, "--rdma-dev mlx5_1:2");
}

TEST(SelectPort, WhatTheUserAskedForIsMissingOrDown) {
  const Discovery d = two_devices(4, 1);
  auto s = select_port(d, "mlx5_7");
  EXPECT_EQ(s.kind, PortSelection::Kind::fail);
  EXPECT_EQ(s.reason, "--rdma-dev mlx5_7: no such RDMA device (found: mlx5_0, mlx5_1)");
  s = select_port(d, "mlx5_1:1");
  EXPECT_EQ(s.kind, PortSelection::Kind::fail);
  EXPECT_EQ(s.reason, "--rdma-dev mlx5_1:1: not ACTIVE (mlx5_1:1 DOWN)");
  s = select_port(d, "mlx5_0:3");
  EXPECT_EQ(s.kind, PortSelection::Kind::fail);
  EXPECT_EQ(s.reason, "--rdma-dev mlx5_0:3: no such port");
  s = select_port(d, "mlx5_0:x");
  EXPECT_EQ(s.kind, PortSelection::Kind::fail);
  EXPECT_NE(s.reason.find("the port must be a number"), std::string::npos);
}
