#include "bench/suites/rdma/side_facts.hpp"

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
  s.ib_speed = ep.port.speed_name;
  s.lanes = ep.port.lanes;
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
  s.gpu_index = sel.gpu_index;
  s.gpu_nic_path = sel.gpu_nic_path;
  s.memory = ep.memory;
  s.registration = ep.registration;
  s.registration_notes = ep.registration_notes;
  return s;
}

gpunet::json ceiling_inputs(const SideFacts& s) {
  const bool roce = s.link_layer == "Ethernet";
  gpunet::json j = {{"link_layer", s.link_layer}, {"device", s.device}, {"ib_mtu", s.active_mtu}, {"ipv6", s.ipv6},
                      {"gid_type", s.gid_type}};
  const double rate = roce && s.netdev_rate_Gbps > 0 ? s.netdev_rate_Gbps : s.rate_Gbps;
  if (rate > 0) j["rate_Gbps"] = rate;  // absent: the report says the speed is not known
  if (!roce && !s.ib_speed.empty() && s.lanes > 0) {
    j["ib_speed"] = s.ib_speed;
    j["width"] = s.lanes;
  }
  if (s.pcie_gen > 0 && s.pcie_width > 0) j["pcie"] = {{"gen", s.pcie_gen}, {"width", s.pcie_width}};
  if (s.gpu_index >= 0) j["gpu_index"] = s.gpu_index;
  if (!s.gpu_nic_path.empty()) j["gpu_nic_path"] = s.gpu_nic_path;
  if (s.memory.rfind("cuda", 0) == 0) j["gdr"] = true;
  return j;
}

}  // namespace gpunet::bench::rdma
