// ibv_query_port's codes turned into what people read: state, link layer, MTU in bytes, lanes,
// Gb/s per lane and per port. Pure functions over a plain copy of the fields, so that tests need no
// device (report/CEILINGS.md §7.2 is the oracle; §2 gives the data rates behind the lane rates).
#pragma once

#include <cstdint>
#include <string>

namespace gpunet::bench::rdma {

// The ibv_port_attr fields the suite reads, as plain integers (verbs.h enum values).
struct PortAttrCodes {
  int state = 0;              // ibv_port_state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER
  int phys_state = 0;         // 5 = LinkUp
  int link_layer = 0;         // 0 unspecified, 1 InfiniBand, 2 Ethernet
  int max_mtu = 0;            // ibv_mtu: 1 = 256 ... 5 = 4096
  int active_mtu = 0;
  int active_width = 0;       // 1 = 1X, 2 = 4X, 4 = 8X, 8 = 12X, 16 = 2X
  int active_speed = 0;       // uint8 code; on XDR ports it says NDR
  uint32_t active_speed_ex = 0;  // the real code when non-zero (rdma-core >= 48)
  int gid_tbl_len = 0;
  int lid = 0;
};

struct PortInfo {
  std::string state;       // DOWN, INIT, ARMED, ACTIVE, ACTIVE_DEFER, or "state N"
  bool active = false;
  std::string phys_state;  // LinkUp, Polling, Disabled, ... or "phys state N"
  std::string link_layer;  // InfiniBand, Ethernet, or "unspecified"
  int max_mtu_bytes = 0;   // 0 when the code is unknown
  int active_mtu_bytes = 0;
  int lanes = 0;           // 0 when the width code is unknown
  std::string width;       // "4X"
  std::string speed_name;  // SDR ... XDR; "" when unknown
  double lane_Gbps = 0;    // as ibv_devinfo prints it (QDR 10, FDR 14)
  double rate_Gbps = 0;    // lane_Gbps * lanes
  // Payload rate after line coding: IB QDR 8 and FDR 13.64 per lane (CEILINGS §2); on Ethernet
  // (RoCE) the synthesised speed x width is the nominal Ethernet rate, which is already a data rate.
  double data_rate_Gbps = 0;
  bool speed_from_ex = false;  // active_speed_ex was used
  int gid_tbl_len = 0;
  int lid = 0;
};

int mtu_code_to_bytes(int code);  // 1..5 -> 256..4096; 0 otherwise
int width_code_to_lanes(int code);  // 1, 2, 4, 8, 16 -> 1, 4, 8, 12, 2; 0 otherwise

struct LaneSpeed {
  std::string name;      // SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR
  double printed_Gbps;   // ibv_devinfo's figure
  double data_Gbps;      // IB payload rate per lane
};
// The speed code (active_speed, or active_speed_ex when it is non-zero); name "" when unknown.
LaneSpeed speed_code_to_lane(uint32_t code);

std::string port_state_name(int state);
std::string phys_state_name(int phys_state);
std::string link_layer_name(int link_layer);

PortInfo convert_port_attr(const PortAttrCodes& a);

// "4X EDR (25 Gb/s per lane) = 100 Gb/s"
std::string describe_speed(const PortInfo& p);

}  // namespace gpunet::bench::rdma
