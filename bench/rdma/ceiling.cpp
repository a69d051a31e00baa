#include "bench/rdma/ceiling.hpp"

#include <algorithm>
#include <cstdio>

namespace gpunet::bench::rdma {

int roce_v2_packet_overhead(bool ipv6) { return 14 + (ipv6 ? 40 : 20) + 8 + 12 + 4 + 4 + 8 + 12; }

double write_efficiency(bool infiniband, int64_t message_bytes, int ib_mtu, bool ipv6) {
  if (message_bytes <= 0 || ib_mtu <= 0) return 0;
  const int64_t packets = (message_bytes + ib_mtu - 1) / ib_mtu;
  const int per_packet = infiniband ? kIbPacketOverhead : roce_v2_packet_overhead(ipv6);
  const double m = static_cast<double>(message_bytes);
  return m / (m + static_cast<double>(packets * per_packet + kRethBytes));
}

double pcie_Gbps(int gen, int width, int mps) {
  double lane_GBps = 0;
  switch (gen) {
    case 1: lane_GBps = 2.5 * 0.8 / 8; break;
    case 2: lane_GBps = 5.0 * 0.8 / 8; break;
    case 3: case 4: case 5: lane_GBps = 8.0 * (1 << (gen - 3)) * 128.0 / 130.0 / 8; break;
    case 6: lane_GBps = 64.0 * 242.0 / 256.0 / 8; break;
    default: return 0;
  }
  if (width <= 0 || mps <= 0) return 0;
  const double tlp = static_cast<double>(mps) / (mps + 16 + 8);
  return lane_GBps * width * tlp * 8;
}

std::string figure(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

namespace {

std::string size_text(int64_t b) {
  if (b >= (1 << 20) && b % (1 << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " B";
}

}  // namespace

Ceiling write_ceiling(const LinkFacts& f, int64_t message_bytes, int directions) {
  Ceiling c;
  const bool ib = f.link_layer == "InfiniBand";
  if (!ib && f.link_layer != "Ethernet") {
    c.derivation = "link layer '" + f.link_layer + "' unknown";
    return c;
  }
  if (!ib && f.gid_type != "RoCE v2") {
    c.derivation = "RoCE framing is known here for RoCE v2 only; this port uses " + (f.gid_type.empty() ? "no GID" : f.gid_type);
    return c;
  }
  if (f.rate_Gbps <= 0) {
    c.derivation = "the port does not report its speed";
    return c;
  }
  if (f.ib_mtu < 256 || f.ib_mtu > 4096 || (f.ib_mtu & (f.ib_mtu - 1)) != 0) {
    c.derivation = "active MTU " + std::to_string(f.ib_mtu) + " is not an IB MTU";
    return c;
  }
  const double eff = write_efficiency(ib, message_bytes, f.ib_mtu, f.ipv6);
  const int per_packet = ib ? kIbPacketOverhead : roce_v2_packet_overhead(f.ipv6);
  c.network_Gbps = f.rate_Gbps * eff * directions;
  std::string d = (ib ? std::string("InfiniBand") : std::string("RoCE v2/") + (f.ipv6 ? "IPv6" : "IPv4")) + ", " +
                  figure(f.rate_Gbps) + " Gb/s" + (f.speed_text.empty() ? "" : " (" + f.speed_text + ")") + ", IB MTU " +
                  std::to_string(f.ib_mtu) + ": " + size_text(message_bytes) + " messages at " + std::to_string(per_packet) +
                  " B per packet + " + std::to_string(kRethBytes) + " B RETH = " + figure(c.network_Gbps) + " Gb/s";
  c.Gbps = c.network_Gbps;
  c.limit = "network";
  c.pcie_Gbps = pcie_Gbps(f.pcie_gen, f.pcie_width) * directions;
  if (c.pcie_Gbps > 0) {
    d += "; NIC PCIe Gen" + std::to_string(f.pcie_gen) + " x" + std::to_string(f.pcie_width) + " at MPS " +
         std::to_string(kPcieAssumedMps) + " = " + figure(c.pcie_Gbps) + " Gb/s";
    if (c.pcie_Gbps < c.network_Gbps) {
      c.Gbps = c.pcie_Gbps;
      c.limit = "PCIe";
    }
  } else {
    d += "; NIC PCIe link unknown, not applied";
  }
  if (directions > 1) d += "; both directions";
  c.derivation = d + "; ceiling " + figure(*c.Gbps) + " Gb/s (" + c.limit + ")";
  return c;
}

}  // namespace gpunet::bench::rdma
