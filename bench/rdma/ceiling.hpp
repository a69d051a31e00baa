// The ceiling of an RDMA WRITE stream: the port's data rate times the framing efficiency at the
// active MTU (RoCE v2 over IPv4/IPv6, or native InfiniBand), capped by the NIC's PCIe link.
// Constants and formulas from CEILINGS.md §1.4 (RoCEv2), §2 (IB), §3.1/§3.2 (PCIe).
//
// STAND-IN: report/ceilings (another branch) holds the project's ceiling functions; until it is on
// main this small pure module computes the same figures, and every record also carries the inputs
// as extra.rdma = {link_layer, ib_mtu, rate_Gbps, ipv6, pcie:{gen,width}} for the report's analysis.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpunet::bench::rdma {

inline constexpr int kRethBytes = 16;          // on the first packet of each WRITE message
inline constexpr int kIbPacketOverhead = 26;   // LRH 8 + BTH 12 + ICRC 4 + VCRC 2
inline constexpr int kPcieAssumedMps = 256;    // sysfs does not show the MPS; 256 is the common value

// Per-packet bytes beyond the payload on a RoCE v2 wire, middle packets, no VLAN:
// Eth 14 + IP 20/40 + UDP 8 + BTH 12 + ICRC 4 + FCS 4 + preamble/SFD 8 + IFG 12 = 82 / 102.
int roce_v2_packet_overhead(bool ipv6);

// Payload fraction of one WRITE of `message_bytes` split into MTU-sized packets, one RETH per message.
double write_efficiency(bool infiniband, int64_t message_bytes, int ib_mtu, bool ipv6);

// One direction of a PCIe link after encoding and TLP overhead (4DW header + 8 B) at `mps`, in Gb/s;
// 0 for an unknown generation or width.
double pcie_Gbps(int gen, int width, int mps = kPcieAssumedMps);

struct LinkFacts {
  std::string link_layer;   // InfiniBand or Ethernet
  std::string gid_type;     // RoCE v2, RoCE v1, IB (Ethernet ports need RoCE v2 for a known ceiling)
  int ib_mtu = 0;           // active MTU, bytes
  double rate_Gbps = 0;     // port data rate (port_attr.hpp data_rate_Gbps)
  std::string speed_text;   // "4X EDR", for the derivation
  bool ipv6 = false;        // RoCE v2 with an IPv6 (not IPv4-mapped) GID
  int pcie_gen = 0, pcie_width = 0;  // the NIC's link; 0 = unknown
};

struct Ceiling {
  std::optional<double> Gbps;  // per direction; empty when it cannot be known
  double network_Gbps = 0;
  double pcie_Gbps = 0;        // 0 when unknown (not applied)
  std::string limit;           // "network" or "PCIe"
  std::string derivation;      // in words with the figures, or why it is unknown
};

// Ceiling for WRITE messages of `message_bytes`; `directions` = 2 doubles it (both full duplex).
Ceiling write_ceiling(const LinkFacts& f, int64_t message_bytes, int directions = 1);

std::string figure(double x);  // 4 significant digits

}  // namespace gpunet::bench::rdma
