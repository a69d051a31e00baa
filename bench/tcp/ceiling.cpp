#include "bench/tcp/ceiling.hpp"

#include <cstdio>

namespace gpunet::bench::tcp {

int tcp_payload_per_packet(int mtu, bool ipv6, bool timestamps) {
  const int payload = mtu - (ipv6 ? 40 : 20) - 20 - (timestamps ? 12 : 0);
  return payload > 0 ? payload : 0;
}

double tcp_goodput_ceiling(double rate_bps, int mtu, bool ipv6, bool timestamps, int framing_bytes) {
  const int payload = tcp_payload_per_packet(mtu, ipv6, timestamps);
  if (payload <= 0 || rate_bps <= 0) return 0.0;
  return rate_bps * payload / static_cast<double>(mtu + framing_bytes);
}

std::string format_rate(double bps) {
  char buf[64];
  if (bps >= 1e9)
    std::snprintf(buf, sizeof buf, "%.4g Gb/s", bps / 1e9);
  else if (bps >= 1e6)
    std::snprintf(buf, sizeof buf, "%.4g Mb/s", bps / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.4g kb/s", bps / 1e3);
  return buf;
}

namespace {

Ceiling from_rate(const LinkFacts& l, double rate_bps, int framing, const std::string& what) {
  const double c = tcp_goodput_ceiling(rate_bps, l.mtu, l.ipv6, l.tcp_timestamps, framing);
  if (c <= 0) return {std::nullopt, l.iface + ": MTU " + std::to_string(l.mtu) + " carries no TCP payload"};
  const int payload = tcp_payload_per_packet(l.mtu, l.ipv6, l.tcp_timestamps);
  std::string d = what + " " + format_rate(rate_bps) + ", MTU " + std::to_string(l.mtu) +
                  (l.ipv6 ? ", IPv6" : ", IPv4") + (l.tcp_timestamps ? ", TCP timestamps" : ", no TCP timestamps") +
                  ": " + std::to_string(payload) + "/" + std::to_string(l.mtu + framing) + " → " + format_rate(c);
  return {c, d};
}

}  // namespace

Ceiling link_ceiling(const LinkFacts& l) {
  if (l.stated_rate_bps > 0)
    return from_rate(l, l.stated_rate_bps, kEthernetWireFraming, l.iface + " stated rate (--link-rate, Ethernet framing)");
  if (l.shaped_rate_bps > 0)
    return from_rate(l, l.shaped_rate_bps, kTbfFraming, l.iface + " shaped by tc tbf to");
  if (l.loopback)
    return {std::nullopt, l.iface + " is loopback: no wire, the rate is a memory-copy rate"};
  if (l.driver == "veth" || l.driver == "bridge" || l.driver == "tun")
    return {std::nullopt, l.iface + " is a virtual " + l.driver +
                              " interface: its speed is not a wire rate (state one with --link-rate)"};
  if (l.speed_Mbps <= 0)
    return {std::nullopt, l.iface + ": the NIC reports no speed (state one with --link-rate)"};
  return from_rate(l, l.speed_Mbps * 1e6, kEthernetWireFraming, l.iface + " Ethernet");
}

Ceiling pair_ceiling(const LinkFacts& src, const LinkFacts& dst) {
  const Ceiling a = link_ceiling(src), b = link_ceiling(dst);
  if (!a.goodput_bps) return a;
  if (!b.goodput_bps) return b;
  return *b.goodput_bps < *a.goodput_bps ? b : a;
}

}  // namespace gpunet::bench::tcp
