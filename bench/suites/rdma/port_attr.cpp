#include "bench/suites/rdma/port_attr.hpp"

#include <cstdio>

namespace gpunet::bench::rdma {

int mtu_code_to_bytes(int code) { return code >= 1 && code <= 5 ? 128 << code : 0; }

int width_code_to_lanes(int code) {
  switch (code) {
    case 1: return 1;
    case 2: return 4;
    case 4: return 8;
    case 8: return 12;
    case 16: return 2;
    default: return 0;
  }
}

LaneSpeed speed_code_to_lane(uint32_t code) {
  switch (code) {
    case 1: return {"SDR", 2.5, 2.0};
    case 2: return {"DDR", 5.0, 4.0};
    case 4: return {"QDR", 10.0, 8.0};
    case 8: return {"FDR10", 10.0, 10.0};
    case 16: return {"FDR", 14.0, 14.0625 * 64.0 / 66.0};
    case 32: return {"EDR", 25.0, 25.0};
    case 64: return {"HDR", 50.0, 50.0};
    case 128: return {"NDR", 100.0, 100.0};
    case 256: return {"XDR", 200.0, 200.0};
    default: return {"", 0, 0};
  }
}

std::string port_state_name(int state) {
  switch (state) {
    case 0: return "NOP";
    case 1: return "DOWN";
    case 2: return "INIT";
    case 3: return "ARMED";
    case 4: return "ACTIVE";
    case 5: return "ACTIVE_DEFER";
    default: return "state " + std::to_string(state);
  }
}

std::string phys_state_name(int phys_state) {
  switch (phys_state) {
    case 1: return "Sleep";
    case 2: return "Polling";
    case 3: return "Disabled";
    case 4: return "PortConfigurationTraining";
    case 5: return "LinkUp";
    case 6: return "LinkErrorRecovery";
    case 7: return "PhyTest";
    default: return "phys state " + std::to_string(phys_state);
  }
}

std::string link_layer_name(int link_layer) {
  switch (link_layer) {
    case 1: return "InfiniBand";
    case 2: return "Ethernet";
    default: return "unspecified";
  }
}

PortInfo convert_port_attr(const PortAttrCodes& a) {
  PortInfo p;
  p.state = port_state_name(a.state);
  p.active = a.state == 4;
  p.phys_state = phys_state_name(a.phys_state);
  // Verbs reports "unspecified" for InfiniBand on old providers; the kernel then means IB.
  p.link_layer = link_layer_name(a.link_layer == 0 ? 1 : a.link_layer);
  p.max_mtu_bytes = mtu_code_to_bytes(a.max_mtu);
  p.active_mtu_bytes = mtu_code_to_bytes(a.active_mtu);
  p.lanes = width_code_to_lanes(a.active_width);
  p.width = p.lanes ? std::to_string(p.lanes) + "X" : "";
  p.speed_from_ex = a.active_speed_ex != 0;
  const LaneSpeed lane = speed_code_to_lane(p.speed_from_ex ? a.active_speed_ex : static_cast<uint32_t>(a.active_speed));
  p.speed_name = lane.name;
  p.lane_Gbps = lane.printed_Gbps;
  p.rate_Gbps = lane.printed_Gbps * p.lanes;
  p.data_rate_Gbps = (p.link_layer == "Ethernet" ? lane.printed_Gbps : lane.data_Gbps) * p.lanes;
  p.gid_tbl_len = a.gid_tbl_len;
  p.lid = a.lid;
  return p;
}

std::string describe_speed(const PortInfo& p) {
  if (p.speed_name.empty() || p.lanes == 0) return "speed unknown";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s %s (%g Gb/s per lane) = %g Gb/s", p.width.c_str(), p.speed_name.c_str(), p.lane_Gbps,
                p.rate_Gbps);
  return buf;
}

}  // namespace gpunet::bench::rdma
