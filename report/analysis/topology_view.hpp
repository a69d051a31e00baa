// Read-only view of Report::topology, the per-node sections the topology discovery writes. The view is
// optional and defensive: every field may be absent, and absence is reported, never guessed.
//
// Shapes accepted for Report::topology:
//   {"nodes": [ {"host": "node-a", ...}, ... ]}     // list of node sections
//   {"nodes": {"node-a": {...}, ...}}                // or keyed by host
//   {"node-a": {...}, ...}                           // or the host map at top level
// Keys read in a node section (all optional):
//   gpus:   [{index, name, bdf, numa, pcie: {gen, width, max_gen, max_width, mps}, nvlink: {gen, links}}]
//   nics:   [{name, netdev, kind: "ethernet"|"infiniband"|"roce", link_layer: "InfiniBand"|"Ethernet",
//             speed_Mbps, mtu, rate_Gbps, numa, pcie: {gen, width, mps}}]
//   paths:  [{gpu: <index>, nic: <name>, class: "PIX"|"PXB"|"PHB"|"NODE"|"SYS"|...}]
//   matrix: {labels: [..], cells: [[..], ..]}         // nvidia-smi topo -m style, for the HTML report
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/json.hpp"

namespace gpunet::report {

struct TopologyMatrix {
  std::string host;
  std::vector<std::string> labels;
  std::vector<std::vector<std::string>> cells;  // labels.size() rows of labels.size() cells
};

class TopologyView {
 public:
  explicit TopologyView(const gpunet::json& topology);  // keeps pointers into topology
  explicit TopologyView(gpunet::json&&) = delete;         // so a temporary cannot be viewed

  const gpunet::json* node(const std::string& host) const;
  const gpunet::json* gpu(const std::string& host, int index) const;
  const gpunet::json* nic(const std::string& host, const std::string& name) const;  // name or netdev
  std::optional<std::string> path_class(const std::string& host, int gpu, const std::string& nic) const;
  // NICs of the host with an RDMA link layer (kind infiniband/roce, or a link_layer field).
  std::vector<std::string> rdma_nics(const std::string& host) const;
  std::vector<TopologyMatrix> matrices() const;  // well-formed matrices only, in host order
  size_t node_count() const { return order_.size(); }
  const std::vector<std::string>& hosts() const { return order_; }  // in the order of the topology

 private:
  std::unordered_map<std::string, const gpunet::json*> nodes_;
  std::vector<std::string> order_;
};

}  // namespace gpunet::report
