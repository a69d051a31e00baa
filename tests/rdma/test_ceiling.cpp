// RDMA WRITE ceilings against the tables of CEILINGS.md §1.4 (RoCEv2), §2 (IB), §3 (PCIe).
#include <gtest/gtest.h>

#include "bench/rdma/ceiling.hpp"

using namespace gpunet::bench::rdma;

namespace {
LinkFacts roce(double rate, int mtu, bool ipv6 = false) {
  LinkFacts f;
  f.link_layer = "Ethernet";
  f.gid_type = "RoCE v2";
  f.rate_Gbps = rate;
  f.ib_mtu = mtu;
  f.ipv6 = ipv6;
  return f;
}
constexpr int64_t kHuge = 1LL << 30;  // one RETH in 1 GiB: the steady state of §1.4's table
}  // namespace

TEST(RdmaCeiling, RoceOverheadPerPacket) {
  EXPECT_EQ(roce_v2_packet_overhead(false), 82);
  EXPECT_EQ(roce_v2_packet_overhead(true), 102);
}

TEST(RdmaCeiling, RoceSteadyStateEfficiencyTable) {
  struct Row {
    int mtu;
    double v4, v6;
  };
  for (const Row& r : {Row{1024, 0.92586, 0.90941}, Row{2048, 0.96150, 0.95256}, Row{4096, 0.98037, 0.97570}}) {
    EXPECT_NEAR(write_efficiency(false, kHuge, r.mtu, false), r.v4, 1e-5) << r.mtu;
    EXPECT_NEAR(write_efficiency(false, kHuge, r.mtu, true), r.v6, 1e-5) << r.mtu;
  }
}

TEST(RdmaCeiling, RoceGoodputTable) {
  // §1.4 goodput, Gb/s, IPv4: MTU 1024 / 2048 / 4096 at 25, 100, 200, 400, 800 Gb/s.
  const double rates[] = {25, 100, 200, 400, 800};
  const double g1024[] = {23.15, 92.59, 185.17, 370.34, 740.69};
  const double g4096[] = {24.51, 98.04, 196.07, 392.15, 784.30};
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(*write_ceiling(roce(rates[i], 1024), kHuge).Gbps, g1024[i], 0.01);
    EXPECT_NEAR(*write_ceiling(roce(rates[i], 4096), kHuge).Gbps, g4096[i], 0.01);
  }
}

TEST(RdmaCeiling, MessageLevelEfficiency) {
  // "64 KiB at MTU 4096 gives 0.98014, and at MTU 1024 gives 0.92565" (§1.4).
  EXPECT_NEAR(write_efficiency(false, 65536, 4096, false), 0.98014, 1e-5);
  EXPECT_NEAR(write_efficiency(false, 65536, 1024, false), 0.92565, 1e-5);
  // A message smaller than the MTU is one packet carrying the RETH: 8 / (8 + 82 + 16).
  EXPECT_NEAR(write_efficiency(false, 8, 4096, false), 8.0 / 106, 1e-12);
  EXPECT_EQ(write_efficiency(false, 0, 4096, false), 0);
}

TEST(RdmaCeiling, InfiniBandNative) {
  // §2: 4096 / 4122 = 0.99369 -> 397.5 Gb/s on NDR 4X; 0.98746 at MTU 2048.
  EXPECT_NEAR(write_efficiency(true, kHuge, 4096, false), 0.99369, 1e-5);
  EXPECT_NEAR(write_efficiency(true, kHuge, 2048, false), 0.98746, 1e-5);
  LinkFacts f;
  f.link_layer = "InfiniBand";
  f.gid_type = "IB";
  f.rate_Gbps = 400;
  f.ib_mtu = 4096;
  f.speed_text = "4X NDR";
  const Ceiling c = write_ceiling(f, kHuge);
  ASSERT_TRUE(c.Gbps);
  EXPECT_NEAR(*c.Gbps, 397.5, 0.05);
  EXPECT_EQ(c.limit, "network");
  EXPECT_NE(c.derivation.find("InfiniBand, 400 Gb/s (4X NDR), IB MTU 4096"), std::string::npos) << c.derivation;
  EXPECT_NE(c.derivation.find("NIC PCIe link unknown, not applied"), std::string::npos) << c.derivation;
}

TEST(RdmaCeiling, PcieRates) {
  // §3.1 x16 after encoding, times the MPS-256 4DW TLP efficiency of §3.2 (14.40 / 28.81 / 57.61 GB/s).
  EXPECT_NEAR(pcie_Gbps(3, 16) / 8, 14.40, 0.01);
  EXPECT_NEAR(pcie_Gbps(4, 16) / 8, 28.81, 0.01);
  EXPECT_NEAR(pcie_Gbps(5, 16) / 8, 57.61, 0.01);
  EXPECT_NEAR(pcie_Gbps(1, 16, 1 << 20) / 8, 4.0, 0.001);  // huge MPS -> the encoded rate
  EXPECT_EQ(pcie_Gbps(0, 16), 0);
  EXPECT_EQ(pcie_Gbps(7, 16), 0);
  EXPECT_EQ(pcie_Gbps(4, 0), 0);
}

TEST(RdmaCeiling, HdrOnGen3x16IsCappedByPcie) {
  // §1.4: "HDR/200G on a Gen3 x16 slot caps at about 115 Gb/s".
  LinkFacts f = roce(200, 4096);
  f.pcie_gen = 3;
  f.pcie_width = 16;
  const Ceiling c = write_ceiling(f, kHuge);
  ASSERT_TRUE(c.Gbps);
  EXPECT_NEAR(*c.Gbps, 115.2, 0.1);
  EXPECT_EQ(c.limit, "PCIe");
  EXPECT_NEAR(c.network_Gbps, 196.07, 0.01);
  EXPECT_NE(c.derivation.find("NIC PCIe Gen3 x16 at MPS 256 = 115.2 Gb/s"), std::string::npos) << c.derivation;
  EXPECT_NE(c.derivation.find("ceiling 115.2 Gb/s (PCIe)"), std::string::npos) << c.derivation;
  f.pcie_gen = 5;  // 400G on Gen5 x16 is fine (§1.4)
  f.rate_Gbps = 400;
  EXPECT_EQ(write_ceiling(f, kHuge).limit, "network");
}

TEST(RdmaCeiling, BidirectionalDoubles) {
  LinkFacts f = roce(100, 4096);
  f.pcie_gen = 4;
  f.pcie_width = 16;
  const Ceiling one = write_ceiling(f, 1 << 20), two = write_ceiling(f, 1 << 20, 2);
  EXPECT_NEAR(*two.Gbps, 2 * *one.Gbps, 1e-9);
  EXPECT_NE(two.derivation.find("both directions"), std::string::npos);
}

TEST(RdmaCeiling, UnknownIsSaidNotGuessed) {
  LinkFacts v1 = roce(100, 4096);
  v1.gid_type = "RoCE v1";
  EXPECT_FALSE(write_ceiling(v1, kHuge).Gbps);
  EXPECT_NE(write_ceiling(v1, kHuge).derivation.find("RoCE v1"), std::string::npos);
  EXPECT_FALSE(write_ceiling(roce(0, 4096), kHuge).Gbps);
  EXPECT_EQ(write_ceiling(roce(0, 4096), kHuge).derivation, "the port does not report its speed");
  EXPECT_FALSE(write_ceiling(roce(100, 1500), kHuge).Gbps);
  LinkFacts odd = roce(100, 4096);
  odd.link_layer = "unspecified";
  EXPECT_FALSE(write_ceiling(odd, kHuge).Gbps);
}
