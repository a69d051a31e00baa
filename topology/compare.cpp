#include "topology/compare.hpp"

#include "common/strings.hpp"

#include <algorithm>
#include <set>

#include "topology/pcie.hpp"

namespace gpunet::topo {

namespace {

// What a NIC is called across nodes: its first netdev, else its first RDMA device, else its index.
std::string nic_key(const Device& d, size_t index) {
  if (!d.netdevs.empty()) return "NIC " + d.netdevs.front();
  if (!d.rdma_devs.empty()) return "NIC " + d.rdma_devs.front();
  return "NIC " + std::to_string(index);
}

std::string hex4(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04x", v & 0xffffu);
  return buf;
}

void add_link(NodeSummary& s, const std::string& who, const PcieLink& l) {
  if (l.usable().known()) s.properties[who + " PCIe link"] = describe(l.usable());
  // The trained width is stable on an idle device; the trained speed is not, so it stays out.
  if (l.current.width) s.properties[who + " trained width"] = "x" + std::to_string(l.current.width);
}

using Groups = std::map<std::string, std::vector<std::string>>;  // value -> hosts

// Hosts by their value of one property; a node without the property counts as "absent".
Groups property_groups(const std::vector<NodeSummary>& nodes, const std::string& key) {
  Groups g;
  for (const auto& n : nodes) {
    const auto it = n.properties.find(key);
    g[it == n.properties.end() ? std::string("absent") : it->second].push_back(n.hostname);
  }
  return g;
}

std::string describe_groups(const Groups& groups) {
  std::vector<std::string> parts;
  for (const auto& [value, hosts] : groups) parts.push_back(value + " on " + join(hosts, ", "));
  return join(parts, "; ");
}

void compare_key(const std::vector<NodeSummary>& nodes, const std::string& key, const Groups& groups,
                 std::vector<Finding>& out) {
  if (groups.size() < 2) return;
  const auto majority = std::max_element(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return a.second.size() < b.second.size();
  });
  if (majority->second.size() * 2 > nodes.size()) {
    const size_t others = majority->second.size();
    for (const auto& [value, hosts] : groups) {
      if (value == majority->first) continue;
      out.push_back({Severity::warning, "node_differs",
                     join(hosts, ", ") + (hosts.size() == 1 ? " differs" : " differ") + " from the other " +
                         std::to_string(others) + (others == 1 ? " node" : " nodes") + ": " + key + " is " + value +
                         " there, " + majority->first + " on the others.",
                     hosts, ""});
    }
    return;
  }
  std::vector<std::string> all;
  for (const auto& n : nodes) all.push_back(n.hostname);
  out.push_back({Severity::warning, "node_differs",
                 "Nodes disagree on " + key + " and no value has a majority: " + describe_groups(groups) + ".", all, ""});
}

}  // namespace

NodeSummary summarize(const NodeTopology& t) {
  NodeSummary s;
  s.hostname = t.hostname;
  const auto gpus = t.gpus();
  const auto nics = t.nics();
  s.properties["GPU count"] = std::to_string(gpus.size());
  s.properties["NIC count"] = std::to_string(nics.size());
  s.properties["RDMA device count"] = std::to_string(t.rdma.size());
  for (size_t i = 0; i < gpus.size(); ++i) {
    const Device& g = *gpus[i];
    const std::string who = "GPU " + std::to_string(i);
    s.properties[who + " model"] = hex4(g.vendor_id) + ":" + hex4(g.device_id) + (g.name.empty() ? "" : " " + g.name);
    if (g.numa() >= 0) s.properties[who + " NUMA node"] = std::to_string(g.numa());
    add_link(s, who, g.link);
  }
  for (size_t i = 0; i < nics.size(); ++i) {
    const Device& n = *nics[i];
    const std::string who = nic_key(n, i);
    s.properties[who + " model"] = hex4(n.vendor_id) + ":" + hex4(n.device_id);
    add_link(s, who, n.link);
    for (const auto& name : n.netdevs)
      if (const NetInterface* i_f = t.find_interface(name)) {
        s.properties[who + " speed"] = i_f->speed_Mbps ? std::to_string(*i_f->speed_Mbps / 1000) + " Gb/s" : "unknown";
        if (!i_f->driver.empty()) s.properties[who + " driver"] = i_f->driver;
      }
  }
  for (const auto& r : t.rdma)
    for (const auto& p : r.ports)
      s.properties["RDMA " + r.name + " port " + std::to_string(p.port)] =
          p.state + " " + p.link_layer + " " + std::to_string(static_cast<int>(p.data_rate_Gbps)) + " Gb/s";
  for (const auto& i : t.interfaces)
    if (i.kind != IfKind::virtual_other && i.mtu > 0) s.mtu[i.name] = i.mtu;
  return s;
}

std::vector<Finding> compare_nodes(const std::vector<NodeSummary>& nodes) {
  std::vector<Finding> out;
  if (nodes.size() < 2) return out;
  std::set<std::string> keys, interfaces;
  for (const auto& n : nodes) {
    for (const auto& [k, v] : n.properties) keys.insert(k);
    for (const auto& [k, v] : n.mtu) interfaces.insert(k);
  }
  for (const auto& key : keys) compare_key(nodes, key, property_groups(nodes, key), out);
  for (const auto& name : interfaces) {
    Groups groups;
    for (const auto& n : nodes)
      if (const auto it = n.mtu.find(name); it != n.mtu.end()) groups[std::to_string(it->second)].push_back(n.hostname);
    if (groups.size() < 2) continue;
    std::vector<std::string> hosts;
    for (const auto& [v, h] : groups) hosts.insert(hosts.end(), h.begin(), h.end());
    out.push_back({Severity::warning, "mtu_mismatch",
                   "The MTU of " + name + " differs between nodes: " + describe_groups(groups) +
                       "; packets larger than the smallest MTU are dropped or fragmented.",
                   hosts, ""});
  }
  return out;
}

void to_json(gpunet::json& j, const NodeSummary& s) {
  j = gpunet::json{{"hostname", s.hostname}, {"properties", s.properties}, {"mtu", s.mtu}};
}

void from_json(const gpunet::json& j, NodeSummary& s) {
  j.at("hostname").get_to(s.hostname);
  j.at("properties").get_to(s.properties);
  j.at("mtu").get_to(s.mtu);
}

}  // namespace gpunet::topo
