// GPU <-> NIC pairing (topology/pairing.hpp) on real-machine exports: each GPU's NIC with its path
// class and NUMA node, GPUs at equal distance spread over NICs, management ports left out, and the
// gpu_nic_shared finding when GPUs crowd onto one NIC while an RDMA NIC stands idle.
#include <gtest/gtest.h>

#include "tests/topology/helpers.hpp"
#include "topology/json.hpp"
#include "topology/pairing.hpp"
#include "topology/render.hpp"
#include "topology/topology.hpp"

namespace gpunet::topo {
namespace {

struct PairSeen {
  std::string gpu, nic, cls;
  bool same_numa;
  bool operator==(const PairSeen&) const = default;
};

std::ostream& operator<<(std::ostream& os, const PairSeen& p) {
  return os << p.gpu << "->" << p.nic << " " << p.cls << (p.same_numa ? " same NUMA" : " other NUMA");
}

std::vector<PairSeen> seen(const NodeTopology& t) {
  std::vector<PairSeen> out;
  for (const auto& p : gpu_nic_pairing(t))
    out.push_back({p.gpu->bus_id, p.nic ? p.nic->bus_id : "-", p.nic ? to_string(p.path.cls) : "-", p.same_numa});
  return out;
}

std::vector<Finding> shared_findings(const NodeTopology& t) {
  std::vector<Finding> out;
  pairing_findings(t, out);
  return out;
}

TEST(GpuNicPairing, EqualDistanceGpusGetOneNicEach) {
  // Azure NDv4 (NCCL topology file): two GPUs and two NICs behind each PCIe switch.
  const auto t = load_topology_file(test::data_file("nccl-azure-ndv4-a100.xml"));
  const auto pairs = seen(t);
  ASSERT_EQ(pairs.size(), 8u);
  EXPECT_EQ(pairs[0], (PairSeen{"0001:00:00.0", "0101:00:00.0", "PIX", true}));
  EXPECT_EQ(pairs[1], (PairSeen{"0002:00:00.0", "0102:00:00.0", "PIX", true}));
  std::set<std::string> nics;
  for (const auto& p : pairs) nics.insert(p.nic);
  EXPECT_EQ(nics.size(), 8u) << "every GPU its own NIC";
  EXPECT_TRUE(shared_findings(t).empty());
}

TEST(GpuNicPairing, OwnPortPerGpuOnDualPortCards) {
  // Lassen (IBM AC922): a dual-port ConnectX-5 per socket, two GPUs per socket; the BCM5719 ports are not candidates.
  const auto pairs = seen(load_topology_file(test::data_file("ibm-ac922-lassen-4xv100.xml")));
  EXPECT_EQ(pairs, (std::vector<PairSeen>{{"0004:04:00.0", "0003:01:00.0", "NODE", true},
                                          {"0004:05:00.0", "0003:01:00.1", "NODE", true},
                                          {"0035:03:00.0", "0033:01:00.0", "NODE", true},
                                          {"0035:04:00.0", "0033:01:00.1", "NODE", true}}));
}

TEST(GpuNicPairing, SharedNicWithoutAnIdleOneIsNoFinding) {
  // JUWELS: two GPUs behind each switch with one InfiniBand HCA; the four Ethernet ports carry no GPU.
  const auto t = load_topology_file(test::data_file("juwels-cluster-gpu-4xv100.xml"));
  EXPECT_EQ(seen(t), (std::vector<PairSeen>{{"0000:5d:00.0", "0000:5f:00.0", "PIX", true},
                                            {"0000:5e:00.0", "0000:5f:00.0", "PIX", true},
                                            {"0000:88:00.0", "0000:8a:00.0", "PIX", true},
                                            {"0000:89:00.0", "0000:8a:00.0", "PIX", true}}));
  EXPECT_TRUE(shared_findings(t).empty());
  EXPECT_TRUE(shared_findings(load_topology_file(test::data_file("penguin-x1904gt-pascal-2xp100.xml"))).empty())
      << "two GPUs on one ConnectX-5 beside two I350 management ports";
}

TEST(GpuNicPairing, FarNicIsSysAndOnAnotherNumaNode) {
  // HP SL390s: one InfiniBand NIC on socket 0; GPUs 1 and 2 sit on socket 1.
  const auto pairs = seen(load_topology_file(test::data_file("hp-sl390s-g7-3gpu-mlx4.xml")));
  EXPECT_EQ(pairs, (std::vector<PairSeen>{{"0000:06:00.0", "0000:05:00.0", "PHB", true},
                                          {"0000:11:00.0", "0000:05:00.0", "SYS", false},
                                          {"0000:14:00.0", "0000:05:00.0", "SYS", false}}));
}

TEST(GpuNicPairing, NoNicAtAll) {
  const auto pairs = seen(load_topology_file(test::data_file("dgx2h-16xv100.xml")));
  ASSERT_EQ(pairs.size(), 16u);
  EXPECT_EQ(pairs[0].nic, "-");
}

TEST(GpuNicPairing, CrowdedNicBesideAnIdleRdmaNicIsAFindingWithTheFix) {
  // JUWELS with its first Ethernet port turned into an RDMA NIC (NODE from every GPU of socket 0): GPUs
  // 5d and 5e still share their PIX HCA, and the new NIC carries nothing.
  NodeTopology t = load_topology_file(test::data_file("juwels-cluster-gpu-4xv100.xml"));
  for (auto& d : t.devices)
    if (d.bus_id == "0000:37:00.0") d.rdma_devs = {"mlx5_9"};
  const auto findings = shared_findings(t);
  ASSERT_EQ(findings.size(), 2u);
  const Finding& f = findings[0];
  EXPECT_EQ(f.kind, "gpu_nic_shared");
  EXPECT_EQ(f.severity, Severity::warning);
  EXPECT_EQ(f.subjects, (std::vector<std::string>{"0000:5d:00.0", "0000:5e:00.0"}));
  EXPECT_NE(f.message.find("share NIC 0000:5f:00.0 (ib0, mlx5_0) (PIX) while NIC 0000:37:00.0 (enp55s0f0, mlx5_9) carries no"),
            std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("1/2 of that NIC's bandwidth"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("Fix: move mlx5_9 into a slot under the PCIe switch of GPU 0000:5e:00.0"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("NCCL_IB_HCA=mlx5_9 (a NODE path)"), std::string::npos) << f.message;
  // analyze() reports it too.
  bool in_analyze = false;
  for (const auto& a : analyze(t, {})) in_analyze |= a.kind == "gpu_nic_shared";
  EXPECT_TRUE(in_analyze);
}

TEST(GpuNicPairing, PairedInterfacesAreTheRailsOfTcpIfRails) {
  // The interfaces --tcp-if rails prefers: those of the NICs some GPU is paired with, in name order.
  EXPECT_EQ(gpu_paired_interfaces(load_topology_file(test::data_file("juwels-cluster-gpu-4xv100.xml"))),
            (std::vector<std::string>{"ib0", "ib1"}))
      << "the InfiniBand HCAs, not the four Ethernet ports";
  EXPECT_EQ(gpu_paired_interfaces(load_topology_file(test::data_file("ibm-ac922-lassen-4xv100.xml"))),
            (std::vector<std::string>{"hsi0", "hsi1", "hsi2", "hsi3"}))
      << "one port of a dual-port ConnectX-5 per GPU, not the BCM5719 ports";
  EXPECT_EQ(gpu_paired_interfaces(load_topology_file(test::data_file("hp-sl390s-g7-3gpu-mlx4.xml"))),
            (std::vector<std::string>{"eth2", "ib0"}))
      << "both ports of the one ConnectX VPI card (an Ethernet and an InfiniBand port), not eth0 and eth1";
  // No NIC, or a file that names only RDMA devices: nothing, so the tcp suite keeps its own rule.
  EXPECT_TRUE(gpu_paired_interfaces(load_topology_file(test::data_file("dgx2h-16xv100.xml"))).empty());
  EXPECT_TRUE(gpu_paired_interfaces(load_topology_file(test::data_file("nccl-azure-ndv4-a100.xml"))).empty());
  EXPECT_TRUE(gpu_paired_interfaces(load_topology_file(test::data_file("ci-vm-cpu-only.xml"))).empty());
  // A NIC port enslaved to a bond gives the bond.
  NodeTopology t = load_topology_file(test::data_file("juwels-cluster-gpu-4xv100.xml"));
  NetInterface ib0;
  ib0.name = "ib0";
  ib0.master = "bond0";
  t.interfaces.push_back(ib0);
  EXPECT_EQ(gpu_paired_interfaces(t), (std::vector<std::string>{"bond0", "ib1"}));
}

TEST(GpuNicPairing, RenderedOneLinePerGpu) {
  const std::string text = render_pairing(load_topology_file(test::data_file("hp-sl390s-g7-3gpu-mlx4.xml")));
  EXPECT_NE(text.find("GPU1 0000:11:00.0 -> NIC2 0000:05:00.0  SYS  NUMA 1 / NIC NUMA 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU0 0000:06:00.0 -> NIC2 0000:05:00.0  PHB  same NUMA node 0\n"), std::string::npos) << text;
  EXPECT_EQ(render_pairing(load_topology_file(test::data_file("ci-vm-cpu-only.xml"))), "");
}

// The topology section of the report carries each GPU's nearest NIC and the interfaces it carries, from
// which a rail's matrix names the GPUs behind it (report/document/table_pairs.cpp).
TEST(GpuNicPairing, EachGpusNearestNicIsInTheTopologySection) {
  const auto j = to_json(load_topology_file(test::data_file("ibm-ac922-lassen-4xv100.xml")));
  ASSERT_EQ(j.at("gpus").size(), 4u);
  std::vector<std::string> seen;
  for (const auto& g : j.at("gpus")) {
    ASSERT_TRUE(g.contains("nearest_nic")) << g.dump();
    ASSERT_EQ(g["nearest_nic"]["interfaces"].size(), 1u) << g.dump();
    seen.push_back(g["nearest_nic"]["interfaces"][0].template get<std::string>());
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"hsi0", "hsi1", "hsi2", "hsi3"}));  // one port each, in GPU order
  EXPECT_FALSE(to_json(load_topology_file(test::data_file("ci-vm-cpu-only.xml"))).at("gpus").size());
}

}  // namespace
}  // namespace gpunet::topo
