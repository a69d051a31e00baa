#include "bench/rdma/side_facts.hpp"

namespace gpunet::bench::rdma {

SideFacts side_facts(int rank, const std::string& host, const PortSelection& sel, const EndpointFacts& ep,
                     const std::string& sys_root) {
  SideFacts s;
  s.rank = rank;
  s.host = host;
  s.device = sel.device;
  s.port = sel.port;
  s.selection = sel.reason;
  s.link_layer = ep.port.link_layer;
  s.active_mtu = ep.port.active_mtu_bytes;
  s.speed = describe_speed(ep.port);
  s.speed_text = ep.port.width + (ep.port.speed_name.empty() ? "" : " " + ep.port.speed_name);
  s.rate_Gbps = ep.port.data_rate_Gbps;
  if (ep.gid.ok) {
    s.gid_index = ep.gid.entry.index;
    s.gid = format_gid(ep.gid.entry.gid);
    s.gid_type = to_string(ep.gid.entry.type);
    s.ipv6 = !is_ipv4_mapped(ep.gid.entry.gid);
    if (const auto mbps = netdev_speed_Mbps(sys_root, ep.gid.entry.ndev)) s.netdev_rate_Gbps = static_cast<double>(*mbps) / 1000;
  } else {
    s.gid_type = s.link_layer == "InfiniBand" ? "IB" : "";
  }
  s.gid_choice = ep.gid.reason;
  if (sel.entry) {
    s.bus_id = sel.entry->pci.bus_id;
    s.numa_node = sel.entry->pci.numa_node;
    s.pcie_gen = sel.entry->pci.gen;
    s.pcie_width = sel.entry->pci.width;
    s.pcie_max_gen = sel.entry->pci.max_gen;
    s.pcie_max_width = sel.entry->pci.max_width;
  }
  s.memory = ep.memory;
  s.registration = ep.registration;
  s.registration_notes = ep.registration_notes;
  return s;
}

LinkFacts link_facts(const SideFacts& s) {
  LinkFacts f;
  f.link_layer = s.link_layer;
  f.gid_type = s.gid_type;
  f.ib_mtu = s.active_mtu;
  f.rate_Gbps = s.link_layer == "Ethernet" && s.netdev_rate_Gbps > 0 ? s.netdev_rate_Gbps : s.rate_Gbps;
  f.speed_text = s.link_layer == "Ethernet" && s.netdev_rate_Gbps > 0 ? "interface speed" : s.speed_text;
  f.ipv6 = s.ipv6;
  f.pcie_gen = s.pcie_gen;
  f.pcie_width = s.pcie_width;
  return f;
}

nlohmann::json ceiling_inputs(const SideFacts& s) {
  const LinkFacts f = link_facts(s);
  return {{"link_layer", f.link_layer},
          {"ib_mtu", f.ib_mtu},
          {"rate_Gbps", f.rate_Gbps},
          {"ipv6", f.ipv6},
          {"pcie", {{"gen", f.pcie_gen}, {"width", f.pcie_width}}}};
}

}  // namespace gpunet::bench::rdma
