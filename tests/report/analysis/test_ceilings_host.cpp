// PCIe, NVLink and the NCCL bus-bandwidth model against every entry of the report/CEILINGS.md tables.
#include <array>
#include <vector>

#include <gtest/gtest.h>

#include "report/analysis/ceilings.hpp"
#include "tests/report/table_check.hpp"

using namespace gpunet::report;
using gpunet::report::testing::matches_printed;

TEST(PcieCeiling, EveryRateTableEntry) {
  struct Row {
    int gen;
    double gtps;
    const char* lane;
    std::array<const char*, 4> widths;  // x1 x4 x8 x16
    double marketing_x16;
  };
  const std::vector<Row> table{
      {1, 2.5, "0.250", {"0.250", "1.000", "2.000", "4.000"}, 5},
      {2, 5.0, "0.500", {"0.500", "2.000", "4.000", "8.000"}, 10},
      {3, 8.0, "0.9846", {"0.985", "3.938", "7.877", "15.754"}, 16},
      {4, 16.0, "1.9692", {"1.969", "7.877", "15.754", "31.508"}, 32},
      {5, 32.0, "3.9385", {"3.938", "15.754", "31.508", "63.015"}, 64},
      {6, 64.0, "7.5625", {"7.562", "30.25", "60.50", "121.0"}, 128},
  };
  constexpr std::array<int, 4> widths{1, 4, 8, 16};
  for (const auto& r : table) {
    SCOPED_TRACE("Gen" + std::to_string(r.gen));
    EXPECT_DOUBLE_EQ(pcie_transfer_rate_GTps(r.gen), r.gtps);
    EXPECT_EQ(pcie_gen_from_GTps(r.gtps), r.gen);
    EXPECT_TRUE(matches_printed(pcie_lane_GBps(r.gen), r.lane));
    for (size_t i = 0; i < widths.size(); ++i) {
      const auto c = pcie_encoded(r.gen, widths[i]);
      ASSERT_TRUE(c.known);
      EXPECT_EQ(c.unit, "GB/s");
      EXPECT_TRUE(matches_printed(c.value, r.widths[i])) << "x" << widths[i];
    }
    EXPECT_DOUBLE_EQ(pcie_marketing_GBps(r.gen, 16), r.marketing_x16);
  }
}

TEST(PcieCeiling, EveryWidthAndDerivation) {
  for (int w : {1, 2, 4, 8, 12, 16, 32}) EXPECT_NEAR(pcie_encoded(4, w).value, w * 16.0 * 128 / 130 / 8, 1e-12);
  EXPECT_FALSE(pcie_encoded(4, 3).known);
  EXPECT_FALSE(pcie_encoded(7, 16).known);
  EXPECT_FALSE(pcie_encoded(0, 16).known);
  EXPECT_EQ(pcie_encoded(4, 8).derivation, "PCIe Gen4 x8: 16 GT/s x 8 lanes, 128b/130b: 15.75 GB/s per direction");
}

TEST(PcieCeiling, ParsesSysfsSpeedText) {
  EXPECT_EQ(pcie_gen_from_speed_text("16.0 GT/s PCIe"), 4);
  EXPECT_EQ(pcie_gen_from_speed_text("2.5 GT/s PCIe\n"), 1);
  EXPECT_EQ(pcie_gen_from_speed_text("8 GT/s"), 3);  // kernel 5.6 and earlier
  EXPECT_EQ(pcie_gen_from_speed_text("64.0 GT/s PCIe"), 6);
  EXPECT_FALSE(pcie_gen_from_speed_text("Unknown").has_value());
  EXPECT_FALSE(pcie_gen_from_speed_text("12 GT/s PCIe").has_value());
}

TEST(PcieCeiling, EveryTlpTableEntry) {
  struct Row {
    int mps;
    const char* dw3;
    const char* dw4;
    std::array<const char*, 3> x16_4dw;  // Gen3 Gen4 Gen5
  };
  const std::vector<Row> table{
      {128, "86.5", "84.2", {"13.27", "26.53", "53.07"}},
      {256, "92.8", "91.4", {"14.40", "28.81", "57.61"}},
      {512, "96.2", "95.5", {"15.05", "30.10", "60.19"}},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(r.mps);
    EXPECT_TRUE(matches_printed(100 * pcie_tlp_efficiency(r.mps, TlpHeader::dw3), r.dw3));
    EXPECT_TRUE(matches_printed(100 * pcie_tlp_efficiency(r.mps, TlpHeader::dw4), r.dw4));
    for (int gen = 3; gen <= 5; ++gen) {
      const auto c = pcie_tlp(gen, 16, r.mps);
      ASSERT_TRUE(c.known);
      EXPECT_TRUE(matches_printed(c.value, r.x16_4dw[static_cast<size_t>(gen - 3)])) << "Gen" << gen;
    }
  }
  EXPECT_NE(pcie_tlp(5, 16, 256).derivation.find("MPS 256, 4DW headers: x 256/280 = 57.61 GB/s"), std::string::npos);
  EXPECT_FALSE(pcie_tlp(4, 16, 300).known);
  EXPECT_FALSE(pcie_tlp(6, 16, 256).known);  // FLIT mode: not modelled, says so
  EXPECT_NE(pcie_tlp(6, 16, 256).unknown_reason.find("FLIT"), std::string::npos);
}

TEST(NvlinkCeiling, EveryTableEntry) {
  struct Row {
    int gen;
    int links;
    double per_link, per_gpu, bidir;
    const char* nccl_per_gpu;
  };
  const std::vector<Row> table{
      {2, 6, 25, 150, 300, "120"},
      {3, 12, 25, 300, 600, "240"},
      {4, 18, 25, 450, 900, "370.8"},
      {5, 18, 50, 900, 1800, "721.8"},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(r.gen);
    const auto g = nvlink_generation(r.gen);
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->links_per_gpu, r.links);
    EXPECT_DOUBLE_EQ(g->link_GBps, r.per_link);
    EXPECT_DOUBLE_EQ(nvlink_line_rate(r.gen).value, r.per_gpu);
    EXPECT_DOUBLE_EQ(2 * nvlink_line_rate(r.gen).value, r.bidir);
    EXPECT_TRUE(matches_printed(nvlink_nccl_effective(r.gen).value, r.nccl_per_gpu));
  }
  EXPECT_DOUBLE_EQ(nvlink_line_rate(3, 4).value, 100);
  EXPECT_FALSE(nvlink_line_rate(1).known);
  EXPECT_EQ(nvlink_line_rate(4).derivation, "NVLink4 (H100/H200): 18 links x 25 GB/s = 450 GB/s per direction");
}

TEST(RingModel, NicEffective) {
  EXPECT_DOUBLE_EQ(nccl_nic_effective(200).value, 24);  // "24GB/s ... per 200G NIC"
  EXPECT_DOUBLE_EQ(nccl_nic_effective(100).value, 12);  // "(12 GB/s for 100G NICs)"
  EXPECT_DOUBLE_EQ(nccl_nic_effective(400).value, 48);  // "46-48GB/s per NIC" for NDR
  EXPECT_FALSE(nccl_nic_effective(0).known);
}

TEST(RingModel, EveryExample) {
  struct Example {
    const char* name;
    double nic;
    int nics;
    double intra;
    double expected;
  };
  // ceilings_compute.py "multi-node ring model".
  const std::vector<Example> examples{
      {"DGX A100 8xHDR", 24, 8, 230, 192},    {"DGX H100 8xNDR lo", 46, 8, 370, 368},
      {"DGX H100 8xNDR hi", 48, 8, 370, 370}, {"1xHDR", 24, 1, 160, 24},
      {"4xHDR A100", 24, 4, 230, 96},
  };
  for (const auto& e : examples) {
    const auto c = ring_busbw_multi_node(known_ceiling(e.intra, "GB/s", "intra"), e.nics,
                                         known_ceiling(e.nic, "GB/s", "nic"));
    ASSERT_TRUE(c.known) << e.name;
    EXPECT_DOUBLE_EQ(c.value, e.expected) << e.name;
  }
  // The validation case end to end: DGX A100 (~230 GB/s intra-node) with 8 HDR NICs measured 192 GB/s.
  const auto dgx = ring_busbw_multi_node(known_ceiling(230, "GB/s", "A100"), 8, nccl_nic_effective(200));
  EXPECT_DOUBLE_EQ(dgx.value, 192);
  EXPECT_EQ(dgx.derivation.substr(0, dgx.derivation.find(';')),
            "Ring across nodes: min(intra-node 230 GB/s, 8 NICs x 24 GB/s = 192 GB/s) = 192 GB/s");
  EXPECT_NE(dgx.derivation.find("per NIC: NCCL on a 200 Gb/s NIC: 0.96 x 25 GB/s = 24 GB/s"), std::string::npos);
}

TEST(RingModel, OneUnknownTermStillBounds) {
  const auto net_only = ring_busbw_multi_node(unknown_ceiling("shared memory"), 1,
                                              known_ceiling(0.1195, "GB/s", "tcp"));
  ASSERT_TRUE(net_only.known);
  EXPECT_DOUBLE_EQ(net_only.value, 0.1195);
  EXPECT_NE(net_only.derivation.find("shared memory"), std::string::npos);
  const auto intra_only = ring_busbw_multi_node(known_ceiling(240, "GB/s", "nv"), 0, nccl_nic_effective(0));
  ASSERT_TRUE(intra_only.known);
  EXPECT_DOUBLE_EQ(intra_only.value, 240);
  const auto none = ring_busbw_multi_node(unknown_ceiling("a"), 2, unknown_ceiling("b"));
  EXPECT_FALSE(none.known);
  EXPECT_NE(none.unknown_reason.find("a"), std::string::npos);
}

TEST(Format, FourSignificantDigits) {
  EXPECT_EQ(format_figure(9.41482), "9.415");
  EXPECT_EQ(format_figure(192), "192");
  EXPECT_EQ(format_figure(0.956407), "0.9564");
  EXPECT_EQ(format_figure(31.5077), "31.51");
  EXPECT_EQ(format_figure(123456), "123456");
}
