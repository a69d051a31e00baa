// RDMA devices and ports from SYS/class/infiniband without root: the PCI function, and per port the
// state, physical state, link layer (InfiniBand, or Ethernet = RoCE), rate, the netdev of a RoCE
// port and whether a RoCE v2 GID is configured. sysfs has no active MTU: verbs supplies it on a live
// machine (rdma_verbs.hpp); for RoCE without verbs it is derived from the netdev MTU as the kernel
// does (largest IB MTU that fits in MTU - 96 bytes of RoCE headers, report/CEILINGS.md §1.4).
#pragma once

#include <string>
#include <vector>

#include "topology/model.hpp"

namespace gpunet::topo {

std::vector<RdmaDevice> read_rdma_devices(const std::string& sys_root, const std::vector<NetInterface>& interfaces);

// Parses the kernel's rate text, "100 Gb/sec (4X EDR)" or "40 Gb/sec (4X QDR)", into rate_Gbps,
// lanes, speed_name and data_rate_Gbps (signalling rates of SDR..FDR converted to data rates).
// Returns false for text it does not understand.
bool parse_rdma_rate(const std::string& text, RdmaPort& port);

// The RoCE active MTU (256..4096 bytes) the kernel picks for a netdev MTU; 0 when none fits.
int roce_mtu_for_netdev_mtu(int netdev_mtu);

// Bytes of an IB MTU enum value (1 = 256 ... 5 = 4096); 0 for others.
int ib_mtu_bytes(int enum_value);

}  // namespace gpunet::topo
