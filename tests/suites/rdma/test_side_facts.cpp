// What one end reports about itself, and the contract between extra.rdma and report::rdma_ceiling
// (the function the analysis applies): the figures must be those of report/CEILINGS.md §1.4, §2 and §3.
#include <gtest/gtest.h>

#include "bench/suites/rdma/side_facts.hpp"
#include "report/analysis/path_ceilings.hpp"

using namespace gpunet::bench::rdma;
using gpunet::report::rdma_ceiling;

namespace {

SideFacts roce_port(double port_Gbps, int mtu) {
  SideFacts s;
  s.rank = 3;
  s.host = "node-b";
  s.device = "mlx5_2";
  s.port = 1;
  s.link_layer = "Ethernet";
  s.active_mtu = mtu;
  s.ib_speed = "EDR";
  s.lanes = 4;
  s.rate_Gbps = port_Gbps;
  s.gid_index = 3;
  s.gid = "::ffff:10.0.0.2";
  s.gid_type = "RoCE v2";
  return s;
}

SideFacts ib_port(const std::string& speed, double data_Gbps, int mtu) {
  SideFacts s;
  s.device = "mlx5_0";
  s.link_layer = "InfiniBand";
  s.active_mtu = mtu;
  s.ib_speed = speed;
  s.lanes = 4;
  s.rate_Gbps = data_Gbps;
  s.gid_type = "IB";
  return s;
}

}  // namespace

TEST(SideFacts, JsonRoundTripKeepsDefaultsForMissingKeys) {
  SideFacts s = roce_port(100, 4096);
  s.gpu_index = 1;
  s.gpu_nic_path = "PIX";
  const gpunet::json j = s;
  EXPECT_EQ(j.at("gid_index"), 3);
  const SideFacts back = j.get<SideFacts>();
  EXPECT_EQ(back.host, "node-b");
  EXPECT_EQ(back.gid, "::ffff:10.0.0.2");
  EXPECT_EQ(back.gpu_nic_path, "PIX");
  const SideFacts empty = gpunet::json::object().get<SideFacts>();
  EXPECT_EQ(empty.gid_index, -1);
  EXPECT_EQ(empty.gpu_index, -1);
}

TEST(CeilingInputs, RoceKeysAndTheInterfaceSpeedWins) {
  SideFacts s = roce_port(100, 4096);
  s.netdev_rate_Gbps = 50;  // a 100G-capable port whose interface runs at 50G
  s.pcie_gen = 4;
  s.pcie_width = 8;
  EXPECT_EQ(ceiling_inputs(s), (gpunet::json{{"link_layer", "Ethernet"}, {"device", "mlx5_2"}, {"ib_mtu", 4096},
                                               {"rate_Gbps", 50.0}, {"ipv6", false}, {"gid_type", "RoCE v2"},
                                               {"pcie", {{"gen", 4}, {"width", 8}}}}));
}

TEST(CeilingInputs, RoceGoodputTable) {
  // §1.4: IPv4 goodput 92.59 (MTU 1024), 96.15 (2048), 98.04 (4096) on 100G; 370.34 / 392.15 on 400G.
  EXPECT_NEAR(rdma_ceiling(ceiling_inputs(roce_port(100, 1024))).value, 92.59, 0.01);
  EXPECT_NEAR(rdma_ceiling(ceiling_inputs(roce_port(100, 2048))).value, 96.15, 0.01);
  EXPECT_NEAR(rdma_ceiling(ceiling_inputs(roce_port(100, 4096))).value, 98.04, 0.01);
  EXPECT_NEAR(rdma_ceiling(ceiling_inputs(roce_port(400, 1024))).value, 370.34, 0.01);
  SideFacts v6 = roce_port(100, 4096);
  v6.ipv6 = true;  // efficiency 0.97570
  EXPECT_NEAR(rdma_ceiling(ceiling_inputs(v6)).value, 97.57, 0.01);
}

TEST(CeilingInputs, InfiniBandNeedsTheSpeedNameBelowEdr) {
  // §2: 4096/4122 of the data rate: HDR 4X 198.7, NDR 397.5. QDR's 40 is signalling; data is 32.
  EXPECT_NEAR(rdma_ceiling(ceiling_inputs(ib_port("HDR", 200, 4096))).value, 198.7, 0.05);
  EXPECT_NEAR(rdma_ceiling(ceiling_inputs(ib_port("NDR", 400, 4096))).value, 397.5, 0.05);
  const auto qdr = rdma_ceiling(ceiling_inputs(ib_port("QDR", 32, 4096)));
  ASSERT_TRUE(qdr.known) << qdr.unknown_reason;
  EXPECT_NEAR(qdr.value, 32 * 4096.0 / 4122, 0.01);
}

TEST(CeilingInputs, PcieCapsHdrOnGen3x16) {
  // §1.4: "HDR/200G on a Gen3 x16 slot caps at about 115 Gb/s" (MPS 256); without the MPS the encoded
  // rate applies: 15.75 GB/s = 126 Gb/s, still below the 198.7 of the port.
  SideFacts s = ib_port("HDR", 200, 4096);
  s.pcie_gen = 3;
  s.pcie_width = 16;
  const auto c = rdma_ceiling(ceiling_inputs(s));
  ASSERT_TRUE(c.known);
  EXPECT_NEAR(c.value, 126.0, 0.1);
  EXPECT_NE(c.derivation.find("PCIe"), std::string::npos) << c.derivation;
}

TEST(CeilingInputs, UnknownSpeedIsSaid) {
  // A RoCE port that reports no speed: the report says so rather than guessing.
  const auto c = rdma_ceiling(ceiling_inputs(roce_port(0, 4096)));
  EXPECT_FALSE(c.known);
  EXPECT_EQ(c.unknown_reason, "the RoCE port speed is not known");
}
