// ibv_query_port codes -> readable port facts, checked against report/CEILINGS.md §7.2 and §2.
#include <gtest/gtest.h>

#include "bench/suites/rdma/port_attr.hpp"

using namespace gpunet::bench::rdma;

TEST(PortAttr, MtuCodes) {
  const int expected[] = {0, 256, 512, 1024, 2048, 4096, 0};
  for (int code = 0; code <= 6; ++code) EXPECT_EQ(mtu_code_to_bytes(code), expected[code]) << code;
  EXPECT_EQ(mtu_code_to_bytes(-1), 0);
}

TEST(PortAttr, WidthCodes) {
  EXPECT_EQ(width_code_to_lanes(1), 1);
  EXPECT_EQ(width_code_to_lanes(2), 4);
  EXPECT_EQ(width_code_to_lanes(4), 8);
  EXPECT_EQ(width_code_to_lanes(8), 12);
  EXPECT_EQ(width_code_to_lanes(16), 2);
  EXPECT_EQ(width_code_to_lanes(3), 0);
  EXPECT_EQ(width_code_to_lanes(0), 0);
}

TEST(PortAttr, SpeedCodesAsIbvDevinfoPrintsThem) {
  struct Row {
    uint32_t code;
    const char* name;
    double printed;
    double data;
  };
  // §7.2 "Printed" column; data rates per lane from §2 (QDR 8, FDR 14.0625*64/66 = 13.64).
  const Row rows[] = {{1, "SDR", 2.5, 2.0},   {2, "DDR", 5.0, 4.0},    {4, "QDR", 10.0, 8.0},
                      {8, "FDR10", 10.0, 10.0}, {16, "FDR", 14.0, 13.636}, {32, "EDR", 25.0, 25.0},
                      {64, "HDR", 50.0, 50.0}, {128, "NDR", 100.0, 100.0}, {256, "XDR", 200.0, 200.0}};
  for (const auto& r : rows) {
    const LaneSpeed s = speed_code_to_lane(r.code);
    EXPECT_EQ(s.name, r.name) << r.code;
    EXPECT_DOUBLE_EQ(s.printed_Gbps, r.printed) << r.name;
    EXPECT_NEAR(s.data_Gbps, r.data, 0.001) << r.name;
  }
  EXPECT_EQ(speed_code_to_lane(3).name, "");
  EXPECT_EQ(speed_code_to_lane(512).printed_Gbps, 0);
}

TEST(PortAttr, ActiveInfiniBandNdrPort) {
  PortAttrCodes a;
  a.state = 4;
  a.phys_state = 5;
  a.link_layer = 1;
  a.max_mtu = 5;
  a.active_mtu = 5;
  a.active_width = 2;
  a.active_speed = 128;
  a.lid = 17;
  const PortInfo p = convert_port_attr(a);
  EXPECT_TRUE(p.active);
  EXPECT_EQ(p.state, "ACTIVE");
  EXPECT_EQ(p.phys_state, "LinkUp");
  EXPECT_EQ(p.link_layer, "InfiniBand");
  EXPECT_EQ(p.active_mtu_bytes, 4096);
  EXPECT_EQ(p.lanes, 4);
  EXPECT_EQ(p.width, "4X");
  EXPECT_EQ(p.speed_name, "NDR");
  EXPECT_DOUBLE_EQ(p.rate_Gbps, 400);
  EXPECT_DOUBLE_EQ(p.data_rate_Gbps, 400);
  EXPECT_FALSE(p.speed_from_ex);
  EXPECT_EQ(p.lid, 17);
  EXPECT_EQ(describe_speed(p), "4X NDR (100 Gb/s per lane) = 400 Gb/s");
}

TEST(PortAttr, ExtendedSpeedWinsWhenSet) {
  // An XDR port reports NDR in the 8-bit field for old readers, the truth in active_speed_ex.
  PortAttrCodes a;
  a.state = 4;
  a.link_layer = 1;
  a.active_width = 2;
  a.active_speed = 128;
  a.active_speed_ex = 256;
  const PortInfo p = convert_port_attr(a);
  EXPECT_TRUE(p.speed_from_ex);
  EXPECT_EQ(p.speed_name, "XDR");
  EXPECT_DOUBLE_EQ(p.rate_Gbps, 800);
  a.active_speed_ex = 0;  // 0 means "look at active_speed"
  EXPECT_EQ(convert_port_attr(a).speed_name, "NDR");
}

TEST(PortAttr, InfiniBandQdrAndFdrDataRatesAreBelowThePrintedRates) {
  PortAttrCodes a;
  a.state = 4;
  a.link_layer = 1;
  a.active_width = 2;
  a.active_speed = 4;  // QDR
  PortInfo p = convert_port_attr(a);
  EXPECT_DOUBLE_EQ(p.rate_Gbps, 40);
  EXPECT_DOUBLE_EQ(p.data_rate_Gbps, 32);
  a.active_speed = 16;  // FDR: 56 as the kernel prints it, 54.5 of data
  p = convert_port_attr(a);
  EXPECT_DOUBLE_EQ(p.rate_Gbps, 56);
  EXPECT_NEAR(p.data_rate_Gbps, 54.55, 0.01);
}

TEST(PortAttr, RoceRateIsTheNominalEthernetRate) {
  // A 100GbE RoCE port synthesises 4X EDR; a 40GbE one 4X QDR, whose rate is 40 of data on Ethernet.
  PortAttrCodes a;
  a.state = 4;
  a.link_layer = 2;
  a.active_mtu = 3;
  a.active_width = 2;
  a.active_speed = 32;
  PortInfo p = convert_port_attr(a);
  EXPECT_EQ(p.link_layer, "Ethernet");
  EXPECT_EQ(p.active_mtu_bytes, 1024);
  EXPECT_DOUBLE_EQ(p.data_rate_Gbps, 100);
  a.active_speed = 4;
  EXPECT_DOUBLE_EQ(convert_port_attr(a).data_rate_Gbps, 40);
}

TEST(PortAttr, StatesAndUnknowns) {
  PortAttrCodes a;
  a.state = 1;
  a.phys_state = 3;
  a.link_layer = 0;  // unspecified: old providers on InfiniBand
  PortInfo p = convert_port_attr(a);
  EXPECT_FALSE(p.active);
  EXPECT_EQ(p.state, "DOWN");
  EXPECT_EQ(p.phys_state, "Disabled");
  EXPECT_EQ(p.link_layer, "InfiniBand");
  EXPECT_EQ(p.lanes, 0);
  EXPECT_EQ(p.rate_Gbps, 0);
  EXPECT_EQ(describe_speed(p), "speed unknown");
  EXPECT_EQ(port_state_name(2), "INIT");
  EXPECT_EQ(port_state_name(3), "ARMED");
  EXPECT_EQ(port_state_name(9), "state 9");
  EXPECT_EQ(phys_state_name(2), "Polling");
  EXPECT_EQ(link_layer_name(7), "unspecified");
}
