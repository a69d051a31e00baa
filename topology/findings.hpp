// Findings: what is wrong or worth knowing about a node's topology, each with a severity and one
// plain sentence. analyze() looks at one node; compare_nodes() (compare.hpp) looks across nodes.
//
// Kinds produced by analyze():
//  pcie_width_below_max      a link trained at fewer lanes than it can use (warning)
//  pcie_speed_below_max      a link trained below its usable generation (NIC: warning; GPU: info,
//                            because idle GPUs lower their link speed and return to it under load)
//  pcie_slot_limits_device   the port above a device allows less than the device can do (warning)
//  gpu_nic_sys               a GPU's nearest RDMA-capable NIC is SYS away (warning; info when the
//                            hop is between sub-NUMA domains of one package)
//  gpu_nic_numa              a GPU's nearest NIC is on another NUMA node (warning)
//  gpu_nic_shared            GPUs share one NIC while an RDMA-capable NIC carries none (warning; pairing.hpp)
//  nic_pcie_below_line_rate  a NIC's usable PCIe bandwidth is below its line rate (warning)
//  slow_network              a multi-node run whose fastest NIC is 10 Gb/s or slower (warning)
//  no_rdma                   no RDMA device on the node (info; warning for a multi-node run)
//  default_route_data        data traffic would use the default-route interface (warning)
//  unreadable_object         a device of a topology file that could not be read, left out (warning)
#pragma once

#include <string>
#include <vector>

#include "topology/model.hpp"

namespace gpunet::topo {

enum class Severity { info, warning, error };

std::string to_string(Severity s);
Severity severity_from_string(const std::string& s);  // throws std::invalid_argument

struct Finding {
  Severity severity = Severity::info;
  std::string kind;
  std::string message;                // one plain sentence
  std::vector<std::string> subjects;  // bus ids, interface or node names it is about
  std::string node;                   // host name; empty for cross-node findings
};

struct AnalyzeContext {
  bool multi_node = false;
  std::string data_interface;  // interface the run sends data over (e.g. NCCL_SOCKET_IFNAME); may be empty
};

std::vector<Finding> analyze(const NodeTopology& t, const AnalyzeContext& ctx);

// A NIC's line rate in Gb/s: its netdev speed, else its fastest active RDMA port's data rate;
// 0 when unknown.
double nic_line_rate_Gbps(const NodeTopology& t, const Device& nic);

// A rate as findings write it: "25 Gb/s", "12.5 Gb/s".
std::string rate_text(double Gbps);

}  // namespace gpunet::topo
