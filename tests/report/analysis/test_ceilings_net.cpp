// The Ethernet, tbf, RoCEv2 and InfiniBand ceilings against every entry of the report/CEILINGS.md tables.
#include <array>
#include <vector>

#include <gtest/gtest.h>

#include "report/analysis/ceilings.hpp"
#include "tests/report/table_check.hpp"

using namespace gpunet::report;
using gpunet::report::testing::matches_printed;

namespace {

struct TcpRow {
  int mtu;
  bool ipv6;
  bool ts;
  int p, w;
  const char* efficiency;
  std::array<const char*, 6> goodput;  // 10G 25G 40G 100G 200G 400G
};

// report/CEILINGS.md §1.3, every row and column.
const std::vector<TcpRow> kTcpTable{
    {1500, false, true, 1448, 1538, "0.94148", {"9.415", "23.54", "37.66", "94.15", "188.30", "376.59"}},
    {1500, false, false, 1460, 1538, "0.94928", {"9.493", "23.73", "37.97", "94.93", "189.86", "379.71"}},
    {1500, true, true, 1428, 1538, "0.92848", {"9.285", "23.21", "37.14", "92.85", "185.70", "371.39"}},
    {1500, true, false, 1440, 1538, "0.93628", {"9.363", "23.41", "37.45", "93.63", "187.26", "374.51"}},
    {9000, false, true, 8948, 9038, "0.99004", {"9.900", "24.75", "39.60", "99.00", "198.01", "396.02"}},
    {9000, false, false, 8960, 9038, "0.99137", {"9.914", "24.78", "39.66", "99.14", "198.27", "396.55"}},
    {9000, true, true, 8928, 9038, "0.98783", {"9.878", "24.70", "39.51", "98.78", "197.57", "395.13"}},
    {9000, true, false, 8940, 9038, "0.98916", {"9.892", "24.73", "39.57", "98.92", "197.83", "395.66"}},
};
constexpr std::array<double, 6> kTcpRates{10, 25, 40, 100, 200, 400};

}  // namespace

TEST(TcpCeiling, EveryTableEntry) {
  for (const auto& row : kTcpTable) {
    const EthernetFraming f{row.mtu, row.ipv6, row.ts, false};
    SCOPED_TRACE(std::to_string(row.mtu) + (row.ipv6 ? " v6" : " v4") + (row.ts ? " ts" : " nots"));
    EXPECT_EQ(tcp_payload_bytes(f), row.p);
    EXPECT_EQ(ethernet_wire_bytes(f), row.w);
    EXPECT_TRUE(matches_printed(static_cast<double>(row.p) / row.w, row.efficiency));
    for (size_t i = 0; i < kTcpRates.size(); ++i) {
      const auto c = tcp_goodput(kTcpRates[i], f);
      ASSERT_TRUE(c.known);
      EXPECT_EQ(c.unit, "Gb/s");
      EXPECT_TRUE(matches_printed(c.value, row.goodput[i])) << kTcpRates[i] << "G";
    }
  }
}

TEST(TcpCeiling, DerivationInWords) {
  const auto c = tcp_goodput(10, EthernetFraming{});
  EXPECT_EQ(c.derivation.substr(0, c.derivation.find(" (")), "10GbE, MTU 1500, IPv4, TCP timestamps: 9.415 Gb/s");
  EXPECT_NE(c.derivation.find("1448 payload bytes per 1538 bytes"), std::string::npos);
  EXPECT_NE(tcp_goodput(1, EthernetFraming{}).derivation.find("1GbE"), std::string::npos);
  EXPECT_NE(tcp_goodput(800, EthernetFraming{}).derivation.find("800GbE"), std::string::npos);
  EXPECT_NE(tcp_goodput(0.1, EthernetFraming{}).derivation.find("100 Mb/s Ethernet"), std::string::npos);
}

TEST(TcpCeiling, VlanAddsFourBytes) {
  const EthernetFraming f{1500, false, true, true};
  EXPECT_EQ(ethernet_wire_bytes(f), 1542);
  EXPECT_TRUE(matches_printed(static_cast<double>(tcp_payload_bytes(f)) / ethernet_wire_bytes(f), "0.93904"));
  EXPECT_NE(tcp_goodput(10, f).derivation.find("VLAN"), std::string::npos);
}

TEST(TcpCeiling, AllNamedRatesScaleLinearly) {
  for (double r : {1.0, 10.0, 25.0, 40.0, 50.0, 100.0, 200.0, 400.0, 800.0})
    EXPECT_NEAR(tcp_goodput(r, EthernetFraming{}).value, r * 1448.0 / 1538.0, 1e-12);
}

TEST(TcpCeiling, UnknownSpeedOrTinyMtuSaysWhy) {
  const auto c = tcp_goodput(-1, EthernetFraming{});
  EXPECT_FALSE(c.known);
  EXPECT_NE(c.unknown_reason.find("speed"), std::string::npos);
  const auto tiny = tcp_goodput(10, EthernetFraming{40, false, true, false});
  EXPECT_FALSE(tiny.known);
  EXPECT_NE(tiny.unknown_reason.find("MTU 40"), std::string::npos);
}

TEST(TbfCeiling, OneGigabitShapedLinkMatchesDesign) {
  // DESIGN.md: iperf3 reaches 0.957 Gbit/s on a 1 Gbit/s tbf link, "exactly the TCP ceiling"
  // (1448 payload bytes per 1514-byte frame at the qdisc) = 0.9564 Gb/s.
  const auto c = tcp_goodput_tbf(1e9, EthernetFraming{});
  ASSERT_TRUE(c.known);
  EXPECT_NEAR(c.value, 1448.0 / 1514.0, 1e-12);
  EXPECT_TRUE(matches_printed(c.value, "0.9564"));
  EXPECT_TRUE(matches_printed(c.value, "0.96"));
  EXPECT_NEAR(0.957 / c.value, 1.0, 0.001);  // the measured figure is within 0.1% of it
  EXPECT_NE(c.derivation.find("tbf-shaped link at 1 Gb/s, MTU 1500, IPv4, TCP timestamps: 0.9564 Gb/s"),
            std::string::npos);
  EXPECT_NE(c.derivation.find("1514-byte frame"), std::string::npos);
  EXPECT_NEAR(tcp_goodput_tbf(100e6, EthernetFraming{9000, true, false, true}).value, 0.1 * 8940 / 9018, 1e-12);
  EXPECT_FALSE(tcp_goodput_tbf(0, EthernetFraming{}).known);
}

TEST(RoceCeiling, OverheadPerPacket) {
  EXPECT_EQ(roce_overhead_bytes(false, false, false), 82);
  EXPECT_EQ(roce_overhead_bytes(true, false, false), 102);
  EXPECT_EQ(roce_overhead_bytes(false, false, true), 98);
  EXPECT_EQ(roce_overhead_bytes(true, false, true), 118);
  EXPECT_EQ(roce_overhead_bytes(false, true, false), 86);
}

TEST(RoceCeiling, EveryTableEntry) {
  struct Row {
    int mtu;
    const char* eff_v4;
    const char* eff_v6;
    std::array<const char*, 5> goodput;  // 25G 100G 200G 400G 800G, IPv4
  };
  const std::vector<Row> table{
      {1024, "0.92586", "0.90941", {"23.15", "92.59", "185.17", "370.34", "740.69"}},
      {2048, "0.96150", "0.95256", {"24.04", "96.15", "192.30", "384.60", "769.20"}},
      {4096, "0.98037", "0.97570", {"24.51", "98.04", "196.07", "392.15", "784.30"}},
  };
  constexpr std::array<double, 5> rates{25, 100, 200, 400, 800};
  for (const auto& r : table) {
    SCOPED_TRACE(r.mtu);
    EXPECT_TRUE(matches_printed(roce_goodput(1, r.mtu, false).value, r.eff_v4));
    EXPECT_TRUE(matches_printed(roce_goodput(1, r.mtu, true).value, r.eff_v6));
    for (size_t i = 0; i < rates.size(); ++i) {
      const auto c = roce_goodput(rates[i], r.mtu, false);
      ASSERT_TRUE(c.known);
      EXPECT_TRUE(matches_printed(c.value, r.goodput[i])) << rates[i] << "G";
    }
  }
  EXPECT_NE(roce_goodput(100, 4096, false).derivation.find("RoCEv2 on 100GbE, IB MTU 4096, IPv4: 98.04 Gb/s"),
            std::string::npos);
}

TEST(RoceCeiling, MessageLevelAndActiveMtu) {
  EXPECT_TRUE(matches_printed(roce_message_efficiency(65536, 4096, false), "0.98014"));
  EXPECT_TRUE(matches_printed(roce_message_efficiency(65536, 1024, false), "0.92565"));
  EXPECT_EQ(roce_active_mtu(1500), 1024);
  EXPECT_EQ(roce_active_mtu(2143), 1024);
  EXPECT_EQ(roce_active_mtu(2144), 2048);
  EXPECT_EQ(roce_active_mtu(4191), 2048);
  EXPECT_EQ(roce_active_mtu(4192), 4096);
  EXPECT_EQ(roce_active_mtu(9000), 4096);
  EXPECT_EQ(roce_active_mtu(300), 0);
  EXPECT_FALSE(roce_goodput(100, 1500, false).known);
  EXPECT_FALSE(roce_goodput(0, 4096, false).known);
}

TEST(IbCeiling, EveryRateTableEntry) {
  struct Row {
    IbSpeed s;
    const char* name;
    double lane_signal;
    const char* lane_data;
    const char* port_4x;
    double sysfs_4x;
    uint32_t verbs_code;
  };
  const std::vector<Row> table{
      {IbSpeed::sdr, "SDR", 2.5, "2", "8", 10, 1},
      {IbSpeed::ddr, "DDR", 5, "4", "16", 20, 2},
      {IbSpeed::qdr, "QDR", 10, "8", "32", 40, 4},
      {IbSpeed::fdr10, "FDR10", 10.3125, "10", "40", 40, 8},
      {IbSpeed::fdr, "FDR", 14.0625, "13.64", "54.5", 56, 16},
      {IbSpeed::edr, "EDR", 25.78125, "25", "100", 100, 32},
      {IbSpeed::hdr, "HDR", 53.125, "50", "200", 200, 64},
      {IbSpeed::ndr, "NDR", 106.25, "100", "400", 400, 128},
      {IbSpeed::xdr, "XDR", 212.5, "200", "800", 800, 256},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(to_string(r.s), r.name);
    EXPECT_EQ(ib_speed_from_name(r.name), r.s);
    EXPECT_EQ(ib_speed_from_verbs_code(r.verbs_code), r.s);
    EXPECT_DOUBLE_EQ(ib_lane_signal_Gbps(r.s), r.lane_signal);
    EXPECT_TRUE(matches_printed(ib_lane_data_Gbps(r.s), r.lane_data));
    EXPECT_TRUE(matches_printed(ib_data_rate_Gbps(r.s, 4), r.port_4x));
    EXPECT_TRUE(matches_printed(ib_data_rate(r.s, 4).value, r.port_4x));
    EXPECT_NEAR(ib_sysfs_rate_Gbps(r.s, 4), r.sysfs_4x, 0.5);
  }
  EXPECT_DOUBLE_EQ(ib_data_rate_Gbps(IbSpeed::xdr, 8), 1600);
  // Wire rate = data x 1.0625 from HDR on (kernel ib_rate_to_mbps: 425000 for 400G, 850000 for 800G).
  EXPECT_DOUBLE_EQ(ib_lane_signal_Gbps(IbSpeed::ndr) * 4 * 1000, 425000);
  EXPECT_DOUBLE_EQ(ib_lane_signal_Gbps(IbSpeed::xdr) * 4 * 1000, 850000);
  EXPECT_FALSE(ib_speed_from_verbs_code(3).has_value());
  EXPECT_EQ(ib_speed_from_name("hdr"), IbSpeed::hdr);
}

TEST(IbCeiling, GoodputAtMtu4096And2048) {
  const std::vector<std::pair<IbSpeed, const char*>> mtu4096{
      {IbSpeed::edr, "99.4"}, {IbSpeed::hdr, "198.7"}, {IbSpeed::ndr, "397.5"}, {IbSpeed::xdr, "795"}};
  for (const auto& [s, printed] : mtu4096) {
    const auto c = ib_goodput(s, 4, 4096);
    ASSERT_TRUE(c.known);
    EXPECT_TRUE(matches_printed(c.value, printed)) << to_string(s);
  }
  EXPECT_TRUE(matches_printed(ib_goodput(IbSpeed::hdr, 1, 4096).value / 50, "0.99369"));
  EXPECT_TRUE(matches_printed(ib_goodput(IbSpeed::hdr, 1, 2048).value / 50, "0.98746"));
  EXPECT_NE(ib_goodput(IbSpeed::hdr, 4, 4096).derivation.find("InfiniBand 4X HDR (200 Gb/s data), IB MTU 4096: 198.7"),
            std::string::npos);
  EXPECT_FALSE(ib_goodput(IbSpeed::hdr, 3, 4096).known);
  EXPECT_FALSE(ib_goodput(IbSpeed::hdr, 4, 3000).known);
}

TEST(IbCeiling, ParsesSysfsRate) {
  const auto r = parse_ib_sysfs_rate("200 Gb/sec (4X HDR)");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->speed, IbSpeed::hdr);
  EXPECT_EQ(r->width, 4);
  const auto q = parse_ib_sysfs_rate("40 Gb/sec (4X QDR)\n");
  ASSERT_TRUE(q.has_value());
  EXPECT_DOUBLE_EQ(ib_data_rate_Gbps(q->speed, q->width), 32);  // 40 is signalling; data is 32
  EXPECT_EQ(parse_ib_sysfs_rate("56 Gb/sec (4X FDR)")->speed, IbSpeed::fdr);
  EXPECT_FALSE(parse_ib_sysfs_rate("200 Gb/sec").has_value());
  EXPECT_FALSE(parse_ib_sysfs_rate("200 Gb/sec (4X ZZZ)").has_value());
}
