// The topology of every node as the report shows it, independent of the output format: CPUs and
// NUMA nodes, GPUs and NICs with their PCIe links, the GPU/NIC path matrix, the network interfaces
// with their role in the run, and the topology findings. Nodes whose model is the same apart from
// the host name form one kind, shown once with the hosts that share it. Pure: reads a Report.
//
// Read from Report::topology (through TopologyView), in the shape topology/json.cpp writes:
//   cpu {packages, cores, pus, numa_nodes [{os_index, package, cpus}]}
//   gpus[], nics[]  bus_id, name, numa_node, os_devices {net, rdma, gpu}, cuda_ordinal,
//                   pcie {current, max, usable: {gen, width}, hwloc_GBps}
//   format          live, hwloc-xml, nccl-xml
//   matrix          {labels, cells, cpu_affinity, numa_affinity}
//   interfaces[]    name, kind, bus_id, speed_Mbps, shaped_rate_bps, mtu, numa_node, rdma, operstate
//   rdma[]          {name, ports [{port, link_layer, data_rate_Gbps, active_mtu, netdev}]}
//   default_route_interfaces
// and in the short shape of hand-made reports (gpus[] {index, bdf, numa, pcie {gen, width, max_gen,
// max_width}}, nics[] {name, kind, speed_Mbps | rate_Gbps, mtu, numa}). The roles come from
// interfaces_used() (report/judge/networks.hpp) and the default route; the findings from the topo
// suite's records (extra.findings of topo/node and topo/compare).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::report {

struct TopoLinkState {
  int gen = 0;  // 0 = unknown
  int width = 0;
  friend bool operator==(const TopoLinkState&, const TopoLinkState&) = default;
};

struct TopoDevice {
  std::string label;  // GPU0.., NIC0.. as in the matrix
  std::string bus_id;
  std::string name;                 // model name
  std::vector<std::string> os_names;  // netdevs, RDMA devices, cudaN
  std::optional<int> numa;
  std::optional<TopoLinkState> current, max, usable;
  std::optional<double> hwloc_GBps;  // the link speed an hwloc export states
  friend bool operator==(const TopoDevice&, const TopoDevice&) = default;
};

struct TopoMatrix {
  std::vector<std::string> labels;
  std::vector<std::vector<std::string>> cells;  // labels.size() rows of labels.size() cells
  std::vector<std::string> cpu_affinity, numa_affinity;  // per row; empty when the source has none
  friend bool operator==(const TopoMatrix&, const TopoMatrix&) = default;
};

struct TopoInterface {
  std::string name;
  std::string kind;     // physical, bond, vlan, bridge, virtual_other, infiniband, ...; "" = unknown
  std::string device;   // label of the NIC behind it (NIC0); "" for virtual interfaces
  std::optional<double> speed_Gbps;   // the link's own speed
  std::optional<double> shaped_Gbps;  // a tbf qdisc shapes it to this
  std::optional<int> mtu;
  std::optional<int> numa;
  std::string rdma;     // RDMA device (and port) on it: "mlx5_0/1"
  std::string state;    // operstate
  std::vector<std::string> roles;  // benchmark traffic, default route, ...
  friend bool operator==(const TopoInterface&, const TopoInterface&) = default;
};

struct TopoNuma {
  int os_index = 0;
  std::optional<int> package;
  std::string cpus;
  friend bool operator==(const TopoNuma&, const TopoNuma&) = default;
};

struct TopoCpu {
  std::optional<int> packages, cores, pus;
  std::vector<TopoNuma> numa;
  friend bool operator==(const TopoCpu&, const TopoCpu&) = default;
};

struct TopoFinding {
  std::string severity;  // info, warning, error
  std::string message;
  friend bool operator==(const TopoFinding&, const TopoFinding&) = default;
};

struct NodeTopologyModel {
  std::string host;
  std::string format;  // live, hwloc-xml, nccl-xml; "" = not said
  TopoCpu cpu;
  std::vector<TopoDevice> gpus, nics;
  std::optional<TopoMatrix> matrix;  // only for nodes with GPUs
  std::vector<TopoInterface> interfaces;
  std::vector<TopoFinding> findings;
  std::vector<std::string> notes;  // what discovery could not read
  friend bool operator==(const NodeTopologyModel&, const NodeTopologyModel&) = default;
};

// Everything of the model but the host name is equal.
bool same_kind(const NodeTopologyModel& a, const NodeTopologyModel& b);

struct TopologyKind {
  std::vector<std::string> hosts;  // in report order
  NodeTopologyModel model;         // of the first host
};

struct TopologyOverview {
  std::vector<TopologyKind> kinds;         // in the order of each kind's first host
  std::vector<TopoFinding> across_nodes;   // the cross-node comparison's findings
};

NodeTopologyModel node_topology_model(const Report& rep, const std::string& host);
TopologyOverview topology_overview(const Report& rep);

}  // namespace gpunet::report
