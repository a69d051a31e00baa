// Node-to-node comparison. Each node reduces its topology to a NodeSummary: named properties that
// should be equal on identical nodes (GPU count and PCIe links, NIC speeds and drivers, RDMA ports)
// and the MTU of each interface. Rank 0 gathers the summaries (as JSON strings) and compare_nodes()
// names the node(s) that differ from the majority, or, without a majority, lists who has what.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "topology/findings.hpp"
#include "topology/model.hpp"

namespace gpunet::topo {

struct NodeSummary {
  std::string hostname;
  std::map<std::string, std::string> properties;  // "GPU 2 PCIe link" -> "Gen4 x16"
  std::map<std::string, int> mtu;                 // interface -> MTU
  friend bool operator==(const NodeSummary&, const NodeSummary&) = default;
};

NodeSummary summarize(const NodeTopology& t);

// Findings of kind node_differs (a property) and mtu_mismatch (an interface MTU), severity warning.
// A pure function of its input; fewer than two summaries give nothing.
std::vector<Finding> compare_nodes(const std::vector<NodeSummary>& nodes);

void to_json(gpunet::json& j, const NodeSummary& s);
void from_json(const gpunet::json& j, NodeSummary& s);

}  // namespace gpunet::topo
