// Every finding kind: triggered by a fixture (a real-machine export, enriched from a sysfs/procfs
// tree built here where the finding needs link or NIC state) and absent on a clean node.
#include <gtest/gtest.h>

#include "tests/topology/helpers.hpp"
#include "topology/topology.hpp"

namespace gpunet::topo {
namespace {

std::vector<Finding> of_kind(const std::vector<Finding>& all, const std::string& kind) {
  std::vector<Finding> out;
  for (const auto& f : all)
    if (f.kind == kind) out.push_back(f);
  return out;
}

struct PenguinLinks {
  std::string gpu0_cur = "8.0 GT/s PCIe", gpu0_cur_width = "16";
  std::string gpu1_cur = "8.0 GT/s PCIe", gpu1_max = "8.0 GT/s PCIe";
  std::string ib_width = "16";
  std::string eth_cur = "5.0 GT/s PCIe";
};

// The Penguin node's PCIe tree and NICs as sysfs shows them, with the given link states.
void build_penguin(const test::FakeRoot& r, const PenguinLinks& l) {
  const std::vector<std::string> sw{"0000:00:03.0", "0000:02:00.0"};
  auto below = [&](std::vector<std::string> tail) {
    std::vector<std::string> chain = sw;
    chain.insert(chain.end(), tail.begin(), tail.end());
    return r.add_pci(chain);
  };
  const auto port0 = below({"0000:03:04.0"}), port1 = below({"0000:03:10.0"}), port2 = below({"0000:03:14.0"});
  for (const auto& p : {port0, port1, port2}) r.set_link(p, "8.0 GT/s PCIe", "16", "8.0 GT/s PCIe", "16");
  r.set_link(below({"0000:03:04.0", "0000:04:00.0"}), l.gpu0_cur, l.gpu0_cur_width, "8.0 GT/s PCIe", "16");
  r.set_link(below({"0000:03:10.0", "0000:07:00.0"}), l.gpu1_cur, "16", l.gpu1_max, "16");
  const auto ib = below({"0000:03:14.0", "0000:08:00.0"});
  r.set_link(ib, "8.0 GT/s PCIe", l.ib_width, "8.0 GT/s PCIe", l.ib_width);
  r.add_netdev("hsi0", ib, "100000", 4092, "up", "mlx5_core");
  r.link("sys/class/infiniband/mlx5_0/device", ib);
  r.write("sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
  r.write("sys/class/infiniband/mlx5_0/ports/1/link_layer", "InfiniBand\n");
  r.write("sys/class/infiniband/mlx5_0/ports/1/rate", "100 Gb/sec (4X EDR)\n");
  r.set_link(r.add_pci({"0000:00:1c.4"}), "5.0 GT/s PCIe", "4", "5.0 GT/s PCIe", "4");
  for (const auto* fn : {"0000:0c:00.0", "0000:0c:00.1"}) {
    const auto dir = r.add_pci({"0000:00:1c.4", fn});
    r.set_link(dir, l.eth_cur, "4", "5.0 GT/s PCIe", "4");
    r.add_netdev(std::string("enp12s0f") + fn[11], dir, "1000", 1500, "up", "igb");
  }
  r.write("proc/net/route",
          "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
          "enp12s0f0\t00000000\t0100A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n");
}

NodeTopology penguin(const test::FakeRoot& r, const PenguinLinks& l = {}) {
  build_penguin(r, l);
  NodeTopology t = load_topology_file(test::data_file("penguin-x1904gt-pascal-2xp100.xml"));
  enrich_from_system(t, {r.sys(), r.proc(), false});
  return t;
}

TEST(Findings, CleanNodeHasNone) {
  test::FakeRoot r;
  const NodeTopology t = penguin(r);
  EXPECT_EQ(t.find_device("0000:04:00.0")->link.usable(), (LinkState{3, 16}));
  EXPECT_EQ(t.find_device("0000:08:00.0")->netdevs, std::vector<std::string>{"hsi0"});
  const auto findings = analyze(t, {true, "hsi0"});
  for (const auto& f : findings) ADD_FAILURE() << f.kind << ": " << f.message;
}

TEST(Findings, LinkTrainedBelowItsMaximum) {
  test::FakeRoot r;
  PenguinLinks l;
  l.gpu0_cur_width = "8";
  l.gpu1_cur = "2.5 GT/s PCIe";
  l.gpu1_max = "16.0 GT/s PCIe";
  l.eth_cur = "2.5 GT/s PCIe";
  const auto findings = analyze(penguin(r, l), {});
  const auto width = of_kind(findings, "pcie_width_below_max");
  ASSERT_EQ(width.size(), 1u);
  EXPECT_EQ(width[0].subjects, std::vector<std::string>{"0000:04:00.0"});
  EXPECT_EQ(width[0].severity, Severity::warning);
  EXPECT_NE(width[0].message.find("x8 but can use x16"), std::string::npos) << width[0].message;
  EXPECT_NE(width[0].message.find("7.88 GB/s instead of 15.75 GB/s"), std::string::npos) << width[0].message;

  const auto speed = of_kind(findings, "pcie_speed_below_max");
  ASSERT_EQ(speed.size(), 3u);  // GPU 07:00.0 and both functions of the I350
  for (const Finding& f : speed) {
    const bool gpu = f.subjects.front() == "0000:07:00.0";
    EXPECT_EQ(f.severity, gpu ? Severity::info : Severity::warning) << f.message;
    if (gpu) {
      EXPECT_NE(f.message.find("idle GPUs lower their link speed"), std::string::npos);
    }
  }

  const auto slot = of_kind(findings, "pcie_slot_limits_device");
  ASSERT_EQ(slot.size(), 1u);
  EXPECT_NE(slot[0].message.find("can do Gen4 x16 but the port above it (0000:03:10.0) allows only Gen3 x16"),
            std::string::npos)
      << slot[0].message;
}

TEST(Findings, NicPcieSlowerThanItsLineRate) {
  test::FakeRoot r;
  PenguinLinks l;
  l.ib_width = "8";  // 100 Gb/s EDR on Gen3 x8 (63 Gb/s)
  const auto found = of_kind(analyze(penguin(r, l), {}), "nic_pcie_below_line_rate");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].subjects, std::vector<std::string>{"0000:08:00.0"});
  EXPECT_NE(found[0].message.find("100 Gb/s line rate but its PCIe link (Gen3 x8) carries only 63.0 Gb/s"),
            std::string::npos)
      << found[0].message;
}

TEST(Findings, GpuFarFromItsRdmaNic) {
  const NodeTopology aws = load_topology_file(test::data_file("aws-g4dn-metal-8xt4.xml"));
  const auto findings = analyze(aws, {});
  const auto sys = of_kind(findings, "gpu_nic_sys");
  ASSERT_EQ(sys.size(), 1u);
  EXPECT_EQ(sys[0].severity, Severity::warning);
  EXPECT_EQ(sys[0].subjects, (std::vector<std::string>{"0000:18:00.0", "0000:19:00.0", "0000:35:00.0", "0000:36:00.0"}));
  EXPECT_NE(sys[0].message.find("rdmap197s0"), std::string::npos);
  const auto numa = of_kind(findings, "gpu_nic_numa");
  ASSERT_EQ(numa.size(), 1u);
  EXPECT_EQ(numa[0].subjects, sys[0].subjects);
  EXPECT_NE(numa[0].message.find("on NUMA node 0 but the nearest NICs"), std::string::npos) << numa[0].message;

  for (const auto* clean : {"juwels-cluster-gpu-4xv100.xml", "penguin-x1904gt-pascal-2xp100.xml"}) {
    const auto f = analyze(load_topology_file(test::data_file(clean)), {});
    EXPECT_TRUE(of_kind(f, "gpu_nic_sys").empty()) << clean;
    EXPECT_TRUE(of_kind(f, "gpu_nic_numa").empty()) << clean;
  }
}

// Sub-NUMA clustering: the decision documented in paths.hpp, seen through the findings.
TEST(Findings, SubNumaHopIsMilderThanCrossSocket) {
  const NodeTopology t = load_topology_file(test::data_file("synthetic-snc-2x2.xml"));
  const auto findings = analyze(t, {});
  const auto sys = of_kind(findings, "gpu_nic_sys");
  ASSERT_EQ(sys.size(), 2u);
  for (const Finding& f : sys) {
    const bool same_package = f.subjects.front() == "0000:17:00.0";
    EXPECT_EQ(f.severity, same_package ? Severity::info : Severity::warning) << f.message;
    EXPECT_EQ(f.message.find("sub-NUMA") != std::string::npos, same_package) << f.message;
  }
  for (const Finding& f : of_kind(findings, "gpu_nic_numa"))
    EXPECT_EQ(f.severity, f.subjects.front() == "0000:17:00.0" ? Severity::info : Severity::warning);
}

TEST(Findings, SlowNetworkOnlyMattersForMultiNodeRuns) {
  test::FakeRoot r;
  for (const auto* fn : {"0000:02:00.0", "0000:02:00.1"})
    r.add_netdev(std::string("enp2s0f") + fn[11], r.add_pci({"0000:00:02.0", fn}), "1000", 1500, "up", "igb");
  const auto mlx4 = r.add_pci({"0000:80:01.0", "0000:81:00.0"});
  r.link("sys/class/infiniband/mlx4_0/device", mlx4);
  r.write("sys/class/infiniband/mlx4_0/ports/1/state", "1: DOWN\n");
  r.write("sys/class/infiniband/mlx4_0/ports/1/rate", "40 Gb/sec (4X QDR)\n");
  NodeTopology t = load_topology_file(test::data_file("redacted-2s-2xk80-mlx4.xml"));
  enrich_from_system(t, {r.sys(), r.proc(), false});
  const auto multi = of_kind(analyze(t, {true, ""}), "slow_network");
  ASSERT_EQ(multi.size(), 1u);
  EXPECT_NE(multi[0].message.find("runs at 1 Gb/s"), std::string::npos) << multi[0].message;
  EXPECT_TRUE(of_kind(analyze(t, {false, ""}), "slow_network").empty());
  test::FakeRoot clean;
  EXPECT_TRUE(of_kind(analyze(penguin(clean), {true, ""}), "slow_network").empty()) << "100 Gb/s EDR";
}

TEST(Findings, NoRdmaDevice) {
  const NodeTopology dgx2 = load_topology_file(test::data_file("dgx2h-16xv100.xml"));
  const auto single = of_kind(analyze(dgx2, {false, ""}), "no_rdma");
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0].severity, Severity::info);
  EXPECT_EQ(of_kind(analyze(dgx2, {true, ""}), "no_rdma").at(0).severity, Severity::warning);
  EXPECT_TRUE(of_kind(analyze(load_topology_file(test::data_file("juwels-cluster-gpu-4xv100.xml")), {true, ""}), "no_rdma")
                  .empty());
  EXPECT_TRUE(of_kind(analyze(load_topology_file(test::data_file("nccl-azure-ndv4-a100.xml")), {true, ""}), "no_rdma")
                  .empty())
      << "InfiniBand-class NICs are RDMA devices";
}

TEST(Findings, DataOnTheDefaultRouteInterface) {
  test::FakeRoot r;
  const NodeTopology t = penguin(r);
  EXPECT_EQ(t.default_route_interfaces, std::vector<std::string>{"enp12s0f0"});
  const auto named = of_kind(analyze(t, {true, "enp12s0f0"}), "default_route_data");
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named[0].subjects, std::vector<std::string>{"enp12s0f0"});
  EXPECT_TRUE(of_kind(analyze(t, {true, "hsi0"}), "default_route_data").empty());

  // Nothing named: a multi-node run without RDMA whose only interface that is up is the default one.
  test::FakeRoot lone;
  lone.add_netdev("eth0", lone.add_pci({"0000:00:03.0"}), "10000", 1500, "up", "virtio-pci");
  lone.add_netdev("eth1", lone.add_pci({"0000:00:04.0"}), "10000", 1500, "down", "virtio-pci");
  lone.write("proc/net/route", "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\neth0\t00000000\t0100000A\t0003\t0\t0\t0\t00000000\n");
  NodeTopology dgx2 = load_topology_file(test::data_file("dgx2h-16xv100.xml"));
  enrich_from_system(dgx2, {lone.sys(), lone.proc(), false});
  EXPECT_EQ(of_kind(analyze(dgx2, {true, ""}), "default_route_data").size(), 1u);
  EXPECT_TRUE(of_kind(analyze(dgx2, {false, ""}), "default_route_data").empty());
  lone.write("sys/devices/pci0000:00/0000:00:04.0/net/eth1/operstate", "up\n");
  enrich_from_system(dgx2, {lone.sys(), lone.proc(), false});
  EXPECT_TRUE(of_kind(analyze(dgx2, {true, ""}), "default_route_data").empty()) << "another interface could carry it";
}

}  // namespace
}  // namespace gpunet::topo
