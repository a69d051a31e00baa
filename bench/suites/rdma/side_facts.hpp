// What one end of a pair knows about itself, sent to the other end as JSON when they connect, so
// that every record can show both sides' device, port, GID choice, memory and registration path.
#pragma once

#include <string>

#include "common/json.hpp"

#include "bench/suites/rdma/engine.hpp"

namespace gpunet::bench::rdma {

struct SideFacts {
  int rank = 0;
  std::string host;
  std::string device;
  int port = 0;
  std::string selection;     // how the port was chosen
  std::string link_layer;
  int active_mtu = 0;
  std::string speed;         // describe_speed()
  std::string speed_text;    // "4X EDR"
  std::string ib_speed;      // "EDR" (for RoCE the synthesised name)
  int lanes = 0;
  double rate_Gbps = 0;      // data rate
  double netdev_rate_Gbps = 0;  // RoCE: the interface's speed when sysfs has it
  int gid_index = -1;
  std::string gid;
  std::string gid_type;
  std::string gid_choice;    // GidChoice::reason
  bool ipv6 = false;
  std::string bus_id;
  int numa_node = -1;
  int pcie_gen = 0, pcie_width = 0, pcie_max_gen = 0, pcie_max_width = 0;
  int gpu_index = -1;        // the rank's GPU when the port choice followed it
  std::string gpu_nic_path;  // path class between that GPU and the NIC
  std::string memory;
  std::string registration;
  std::string registration_notes;
};

// Gathers the facts of an open endpoint on the port `sel` chose.
SideFacts side_facts(int rank, const std::string& host, const PortSelection& sel, const EndpointFacts& ep,
                     const std::string& sys_root);

// extra.rdma as report/analysis/analysis.hpp reads it, for report::rdma_ceiling: {link_layer, device, ib_mtu,
// rate_Gbps (RoCE: the interface's speed when sysfs has it, else the port's), ib_speed, width, ipv6,
// pcie: {gen, width} (the trained link), gid_type, and gpu_index, gpu_nic_path, gdr when known}.
gpunet::json ceiling_inputs(const SideFacts& s);

// JSON with every field; reading keeps the default of a missing key.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SideFacts, rank, host, device, port, selection, link_layer, active_mtu, speed,
                                                speed_text, ib_speed, lanes, rate_Gbps, netdev_rate_Gbps, gid_index, gid, gid_type, gid_choice,
                                                ipv6, bus_id, numa_node, pcie_gen, pcie_width, pcie_max_gen, pcie_max_width,
                                                gpu_index, gpu_nic_path, memory, registration, registration_notes)

}  // namespace gpunet::bench::rdma
