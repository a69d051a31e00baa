// What the tcp suite knows about one end's link. The ceiling formulas are
// report/'s (report/analysis/path_ceilings.hpp: link_ceiling, tcp_flow_ceiling), the same the analysis uses;
// the suite hands them these facts as JSON (json.hpp: link_json).
#pragma once

#include <string>

namespace gpunet::bench::tcp {

// What is known about one end's link; a node reads its own (link_info.hpp), the pair combines two.
struct LinkFacts {
  std::string iface;
  int speed_Mbps = 0;          // from the NIC; 0 when unknown or not a wire rate
  int mtu = 0;
  bool ipv6 = false;
  bool tcp_timestamps = true;
  double shaped_rate_bps = 0;  // tbf at the interface's root, 0 if none
  double stated_rate_bps = 0;  // --link-rate, 0 if not given
  bool loopback = false;
  std::string driver;          // veth, bridge, mlx5_core, ... (empty when unknown)
};

}  // namespace gpunet::bench::tcp
