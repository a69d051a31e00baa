// The sysfs/procfs readers against trees built in a temp directory: PCIe link strings old and new,
// "Unknown" and missing files; netdev speed -1, bonds and VLANs; RDMA ports; default routes.
#include <gtest/gtest.h>

#include "tests/topology/helpers.hpp"
#include "topology/bond_findings.hpp"
#include "topology/pcie.hpp"
#include "topology/sysfs_net.hpp"
#include "topology/sysfs_pci.hpp"
#include "topology/sysfs_rdma.hpp"

namespace gpunet::topo {
namespace {

TEST(SysfsPci, NewKernelFormatWithUpstreamPort) {
  test::FakeRoot root;
  const auto port = root.add_pci({"0000:00:03.0", "0000:02:00.0", "0000:03:04.0"});
  const auto gpu = root.add_pci({"0000:00:03.0", "0000:02:00.0", "0000:03:04.0", "0000:04:00.0"});
  root.set_link(gpu, "2.5 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
  root.set_link(port, "8.0 GT/s PCIe", "16", "8.0 GT/s PCIe", "16");
  PcieLink l;
  ASSERT_TRUE(read_pcie_link(root.sys(), "0000:04:00.0", l));
  EXPECT_EQ(l.current, (LinkState{1, 16}));
  EXPECT_EQ(l.max, (LinkState{4, 16}));
  EXPECT_EQ(l.upstream_bus_id, "0000:03:04.0");
  EXPECT_EQ(l.upstream_max, (LinkState{3, 16}));
  EXPECT_EQ(l.usable(), (LinkState{3, 16})) << "min of device and port max, as NCCL computes it";
}

TEST(SysfsPci, OldKernelFormat) {
  test::FakeRoot root;
  const auto dev = root.add_pci({"0000:00:02.0", "0000:05:00.0"});
  root.set_link(dev, "5 GT/s", "8", "8 GT/s", "8");
  PcieLink l;
  ASSERT_TRUE(read_pcie_link(root.sys(), "0000:05:00.0", l));
  EXPECT_EQ(l.current, (LinkState{2, 8}));
  EXPECT_EQ(l.max, (LinkState{3, 8}));
  EXPECT_FALSE(l.upstream_max.known()) << "the root port has no link files here";
  EXPECT_EQ(l.usable(), (LinkState{3, 8}));
}

TEST(SysfsPci, UnknownAndMissingFilesStayUnknown) {
  test::FakeRoot root;
  const auto dev = root.add_pci({"0000:00:01.0", "0000:01:00.0"});
  root.set_link(dev, "Unknown", "0", "", "");
  PcieLink l;
  l.hwloc_GBps = 15.75;
  ASSERT_TRUE(read_pcie_link(root.sys(), "0000:01:00.0", l));
  EXPECT_FALSE(l.current.known());
  EXPECT_EQ(l.current.width, 0);
  EXPECT_FALSE(l.max.known());
  EXPECT_FALSE(l.usable().known());
  EXPECT_EQ(l.hwloc_GBps, 15.75) << "fields that cannot be read keep their value";
  PcieLink absent;
  EXPECT_FALSE(read_pcie_link(root.sys(), "0000:99:00.0", absent));
}

TEST(SysfsNet, PhysicalInterfaceSpeedMtuDriver) {
  test::FakeRoot root;
  const auto nic = root.add_pci({"0000:00:03.0", "0000:3b:00.0"});
  root.add_netdev("ens1f0", nic, "100000", 9000, "up", "mlx5_core");
  root.add_netdev("ens1f1", "", "-1", 1500, "down");
  root.write("sys/devices/virtual/net/lo/mtu", "65536\n");
  root.link("sys/class/net/lo", "sys/devices/virtual/net/lo");
  const auto ifs = read_net_interfaces(root.sys(), root.proc());
  ASSERT_EQ(ifs.size(), 2u) << "loopback is left out";
  const NetInterface& a = ifs[0];
  EXPECT_EQ(a.name, "ens1f0");
  EXPECT_EQ(a.kind, IfKind::physical);
  EXPECT_EQ(a.bus_id, "0000:3b:00.0");
  EXPECT_EQ(a.speed_Mbps, 100000);
  EXPECT_EQ(a.mtu, 9000);
  EXPECT_EQ(a.operstate, "up");
  EXPECT_EQ(a.driver, "mlx5_core");
  EXPECT_FALSE(ifs[1].speed_Mbps.has_value()) << "speed -1 means unknown";
  EXPECT_EQ(ifs[1].kind, IfKind::virtual_other);
}

TEST(SysfsNet, SpeedParsing) {
  EXPECT_EQ(parse_net_speed("25000"), 25000);
  EXPECT_FALSE(parse_net_speed("-1"));
  EXPECT_FALSE(parse_net_speed("0"));
  EXPECT_FALSE(parse_net_speed(""));
  EXPECT_FALSE(parse_net_speed("fast"));
}

TEST(SysfsNet, NetdevBelowAVirtioOrAuxiliaryDeviceMapsToItsPciFunction) {
  test::FakeRoot root;
  const auto fn = root.add_pci({"0000:00:03.0"});
  root.add_netdev("eth0", fn + "/virtio2", "-1", 1400, "up");
  const auto ifs = read_net_interfaces(root.sys(), root.proc());
  ASSERT_EQ(ifs.size(), 1u);
  EXPECT_EQ(ifs[0].bus_id, "0000:00:03.0");
}

TEST(SysfsNet, BondMembersModeAndVlan) {
  test::FakeRoot root;
  const auto p0 = root.add_pci({"0000:00:03.0", "0000:3b:00.0"});
  const auto p1 = root.add_pci({"0000:00:03.0", "0000:3b:00.1"});
  root.add_netdev("eth0", p0, "25000", 9000, "up", "ice");
  root.add_netdev("eth1", p1, "25000", 9000, "up", "ice");
  root.link(p0 + "/net/eth0/master", "sys/devices/virtual/net/bond0");
  root.add_netdev("bond0", "", "50000", 9000, "up", "", "bond");
  root.write("sys/devices/virtual/net/bond0/bonding/slaves", "eth0 eth1\n");
  root.write("sys/devices/virtual/net/bond0/bonding/mode", "802.3ad 4\n");
  // A team-like aggregate known only through lower_* links.
  root.add_netdev("team0", "", "", 9000, "up");
  root.link("sys/devices/virtual/net/team0/lower_eth0", p0 + "/net/eth0");
  // VLAN 100 on bond0, listed in /proc/net/vlan/config; VLAN 200 on eth1 known only from sysfs.
  root.add_netdev("bond0.100", "", "50000", 9000, "up", "", "vlan");
  root.add_netdev("vlan200", "", "25000", 1500, "up", "", "vlan");
  root.link("sys/devices/virtual/net/vlan200/lower_eth1", p1 + "/net/eth1");
  root.write("proc/net/vlan/config",
             "VLAN Dev name    | VLAN ID\nName-Type: VLAN_NAME_TYPE_RAW_PLUS_VID_NO_PAD\nbond0.100      | 100  | bond0\n");
  const auto ifs = read_net_interfaces(root.sys(), root.proc());
  auto get = [&](const std::string& n) {
    for (const auto& i : ifs)
      if (i.name == n) return i;
    ADD_FAILURE() << n << " not found";
    return NetInterface{};
  };
  const auto bond = get("bond0");
  EXPECT_EQ(bond.kind, IfKind::bond);
  EXPECT_EQ(bond.members, (std::vector<std::string>{"eth0", "eth1"}));
  EXPECT_EQ(bond.bond_mode, "802.3ad");
  EXPECT_EQ(bond.speed_Mbps, 50000);
  EXPECT_EQ(get("eth0").master, "bond0");
  EXPECT_EQ(get("team0").members, std::vector<std::string>{"eth0"});
  const auto v100 = get("bond0.100");
  EXPECT_EQ(v100.kind, IfKind::vlan);
  EXPECT_EQ(v100.vlan_id, 100);
  EXPECT_EQ(v100.vlan_parent, "bond0");
  const auto v200 = get("vlan200");
  EXPECT_EQ(v200.kind, IfKind::vlan);
  EXPECT_EQ(v200.vlan_parent, "eth1");
  EXPECT_EQ(v200.vlan_id, -1) << "the id is only in /proc/net/vlan/config";
}

TEST(ProcRoute, DefaultRouteInterfaces) {
  test::FakeRoot root;
  root.write("proc/net/route",
             "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
             "eno1\t00000000\t0102A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
             "eno1\t0002A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
             "ib0\t0000100A\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n");
  root.write("proc/net/ipv6_route",
             "00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 "
             "00000400 00000001 00000000 00000003 eno2\n"
             "00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 "
             "ffffffff 00000001 00000000 00200200 lo\n"
             "fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 "
             "00000100 00000001 00000000 00000001 ib0\n");
  EXPECT_EQ(read_default_route_interfaces(root.proc()), (std::vector<std::string>{"eno1", "eno2"}));
  test::FakeRoot empty;
  EXPECT_TRUE(read_default_route_interfaces(empty.proc()).empty());
}

void add_port(const test::FakeRoot& root, const std::string& dev, int port, const std::string& state,
              const std::string& layer, const std::string& rate) {
  const std::string p = "sys/class/infiniband/" + dev + "/ports/" + std::to_string(port);
  root.write(p + "/state", state + "\n");
  root.write(p + "/phys_state", "5: LinkUp\n");
  root.write(p + "/link_layer", layer + "\n");
  root.write(p + "/rate", rate + "\n");
}

TEST(SysfsRdma, InfinibandAndRocePorts) {
  test::FakeRoot root;
  const auto ib = root.add_pci({"0000:00:02.0", "0000:5f:00.0"});
  const auto roce = root.add_pci({"0000:00:03.0", "0000:3b:00.0"});
  root.link("sys/class/infiniband/mlx5_0/device", ib);
  add_port(root, "mlx5_0", 1, "4: ACTIVE", "InfiniBand", "200 Gb/sec (4X HDR)");
  root.link("sys/class/infiniband/mlx5_1/device", roce);
  add_port(root, "mlx5_1", 1, "4: ACTIVE", "Ethernet", "100 Gb/sec (4X EDR)");
  const std::string gids = "sys/class/infiniband/mlx5_1/ports/1/";
  root.write(gids + "gids/0", "fe80:0000:0000:0000:0000:00ff:fe00:0001\n");
  root.write(gids + "gid_attrs/types/0", "IB/RoCE v1\n");
  root.write(gids + "gids/1", "fe80:0000:0000:0000:0000:00ff:fe00:0001\n");
  root.write(gids + "gid_attrs/types/1", "RoCE v2\n");
  root.write(gids + "gid_attrs/ndevs/0", "ens1f0\n");
  root.write(gids + "gids/2", "0000:0000:0000:0000:0000:0000:0000:0000\n");
  // A second RoCE device whose only v2 entry is unused (all zero GID).
  root.link("sys/class/infiniband/mlx5_2/device", root.add_pci({"0000:00:03.0", "0000:3b:00.1"}));
  add_port(root, "mlx5_2", 1, "1: DOWN", "Ethernet", "40 Gb/sec (4X QDR)");
  root.write("sys/class/infiniband/mlx5_2/ports/1/gids/3", "0000:0000:0000:0000:0000:0000:0000:0000\n");
  root.write("sys/class/infiniband/mlx5_2/ports/1/gid_attrs/types/3", "RoCE v2\n");

  NetInterface ens;
  ens.name = "ens1f0";
  ens.mtu = 9000;
  const auto devs = read_rdma_devices(root.sys(), {ens});
  ASSERT_EQ(devs.size(), 3u);
  const RdmaPort& p0 = devs[0].ports.at(0);
  EXPECT_EQ(devs[0].bus_id, "0000:5f:00.0");
  EXPECT_EQ(p0.state, "ACTIVE");
  EXPECT_EQ(p0.phys_state, "LinkUp");
  EXPECT_EQ(p0.link_layer, "InfiniBand");
  EXPECT_DOUBLE_EQ(p0.rate_Gbps, 200);
  EXPECT_DOUBLE_EQ(p0.data_rate_Gbps, 200);
  EXPECT_EQ(p0.lanes, 4);
  EXPECT_EQ(p0.speed_name, "HDR");
  EXPECT_FALSE(p0.roce_v2_gid);
  EXPECT_EQ(p0.active_mtu, 0) << "IB active MTU needs verbs";
  const RdmaPort& p1 = devs[1].ports.at(0);
  EXPECT_EQ(p1.link_layer, "Ethernet");
  EXPECT_TRUE(p1.roce_v2_gid);
  EXPECT_EQ(p1.netdev, "ens1f0");
  EXPECT_EQ(p1.active_mtu, 4096) << "netdev MTU 9000 leaves room for IB MTU 4096";
  EXPECT_EQ(p1.active_mtu_source, "derived from netdev MTU");
  const RdmaPort& p2 = devs[2].ports.at(0);
  EXPECT_EQ(p2.state, "DOWN");
  EXPECT_FALSE(p2.roce_v2_gid) << "an all-zero GID is an unused entry";
  EXPECT_DOUBLE_EQ(p2.data_rate_Gbps, 32) << "QDR prints the signalling rate; data is 8 Gb/s per lane";
}

TEST(SysfsRdma, RateAndMtuArithmetic) {
  RdmaPort p;
  ASSERT_TRUE(parse_rdma_rate("56 Gb/sec (4X FDR)", p));
  EXPECT_NEAR(p.data_rate_Gbps, 54.545, 0.01);
  ASSERT_TRUE(parse_rdma_rate("400 Gb/sec (4X NDR)", p));
  EXPECT_DOUBLE_EQ(p.data_rate_Gbps, 400);
  ASSERT_TRUE(parse_rdma_rate("25 Gb/sec (1X EDR)", p));
  EXPECT_DOUBLE_EQ(p.data_rate_Gbps, 25);
  EXPECT_FALSE(parse_rdma_rate("garbage", p));
  EXPECT_EQ(roce_mtu_for_netdev_mtu(1500), 1024);
  EXPECT_EQ(roce_mtu_for_netdev_mtu(2143), 1024);
  EXPECT_EQ(roce_mtu_for_netdev_mtu(2144), 2048);
  EXPECT_EQ(roce_mtu_for_netdev_mtu(4192), 4096);
  EXPECT_EQ(roce_mtu_for_netdev_mtu(300), 0);
  EXPECT_EQ(ib_mtu_bytes(5), 4096);
  EXPECT_EQ(ib_mtu_bytes(1), 256);
  EXPECT_EQ(ib_mtu_bytes(0), 0);
}



// bond0 (802.3ad) over eth0 and eth1 as sysfs shows them, with the members' speeds and states given.
std::vector<NetInterface> bond_of(const std::string& eth1_speed, const std::string& eth1_state) {
  test::FakeRoot root;
  const auto p0 = root.add_pci({"0000:00:03.0", "0000:3b:00.0"});
  const auto p1 = root.add_pci({"0000:00:03.0", "0000:3b:00.1"});
  root.add_netdev("eth0", p0, "25000", 9000, "up", "ice");
  root.add_netdev("eth1", p1, eth1_speed, 9000, eth1_state, "ice");
  root.add_netdev("bond0", "", "50000", 9000, "up", "", "bond");
  root.write("sys/devices/virtual/net/bond0/bonding/slaves", "eth0 eth1\n");
  root.write("sys/devices/virtual/net/bond0/bonding/mode", "802.3ad 4\n");
  return read_net_interfaces(root.sys(), root.proc());
}

std::vector<Finding> bond_findings_of(std::vector<NetInterface> ifs) {
  NodeTopology t;
  t.hostname = "node-b";
  t.interfaces = std::move(ifs);
  std::vector<Finding> out;
  bond_findings(t, out);
  return out;
}


TEST(BondFindings, AHealthyBondHasNone) { EXPECT_TRUE(bond_findings_of(bond_of("25000", "up")).empty()); }

TEST(BondFindings, AMemberDownIsNamedWithWhatTheBondStillCarries) {
  const auto f = bond_findings_of(bond_of("25000", "down"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, "bond_member_down");
  EXPECT_EQ(f[0].node, "node-b");
  EXPECT_EQ(f[0].message,
            "Bond bond0 (802.3ad): member eth1 (down) is not up, so it carries at most 25 Gb/s of its 50 Gb/s; "
            "check the member's cable, transceiver and switch port.");
  EXPECT_EQ(f[0].subjects, (std::vector<std::string>{"bond0", "eth0", "eth1"}));
}

TEST(BondFindings, MembersAtDifferentSpeedsAreNamed) {
  const auto f = bond_findings_of(bond_of("10000", "up"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, "bond_member_speeds");
  EXPECT_EQ(f[0].message,
            "Bond bond0 (802.3ad): its members run at different speeds (eth0 25 Gb/s, eth1 10 Gb/s); a flow hashed "
            "onto the slower member gets 10 Gb/s.");
}

}  // namespace
}  // namespace gpunet::topo
