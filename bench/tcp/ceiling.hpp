// TCP goodput ceilings of a link: pure functions (CEILINGS.md §1.3).
//   goodput = rate × P / W,  P = MTU − IP header − 20 (TCP) − 12 (timestamps, if on),
//   W = MTU + framing: 38 on an Ethernet wire (preamble+SFD 8, MAC header 14, FCS 4, gap 12),
//   14 at a tc tbf qdisc (it counts each packet with its Ethernet header only).
// Kept small here until report/ceilings is on main; it should move there then.
#pragma once

#include <optional>
#include <string>

namespace gpunet::bench::tcp {

inline constexpr int kEthernetWireFraming = 38;
inline constexpr int kTbfFraming = 14;

// Payload bytes per full segment; 0 when the MTU cannot carry a segment.
int tcp_payload_per_packet(int mtu, bool ipv6, bool timestamps);

// Goodput ceiling in bit/s of a link of rate_bps (bit/s); 0 when the MTU is too small.
double tcp_goodput_ceiling(double rate_bps, int mtu, bool ipv6, bool timestamps, int framing_bytes);

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

struct Ceiling {
  std::optional<double> goodput_bps;  // empty when it can't be known
  std::string derivation;             // how it was derived, or why it is unknown
};

// One end's ceiling: stated rate, else tbf rate, else the NIC speed of a physical link.
Ceiling link_ceiling(const LinkFacts& link);

// A pair's ceiling: the lower of both ends' (unknown if either is unknown).
Ceiling pair_ceiling(const LinkFacts& src, const LinkFacts& dst);

// "1 Gb/s", "250 Mb/s", "10 Gb/s", "2.5 Gb/s": a rate for derivations.
std::string format_rate(double bps);

}  // namespace gpunet::bench::tcp
