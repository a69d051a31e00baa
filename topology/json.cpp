#include "topology/json.hpp"

#include <cstdio>

#include "topology/pairing.hpp"
#include "topology/paths.hpp"
#include "topology/pcie.hpp"
#include "topology/render.hpp"

namespace gpunet::topo {

using gpunet::json;

namespace {

json or_null(int v, int unknown) { return v == unknown ? json(nullptr) : json(v); }

std::string hex(unsigned v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, v);
  return buf;
}

json link_json(const LinkState& s) {
  if (s.gen == 0 && s.width == 0) return nullptr;
  const double GBps = pcie_GBps(s);
  return {{"gen", or_null(s.gen, 0)}, {"width", or_null(s.width, 0)}, {"GBps", GBps > 0 ? json(GBps) : json(nullptr)}};
}

json pcie_json(const PcieLink& l) {
  return {{"current", link_json(l.current)},
          {"max", link_json(l.max)},
          {"upstream_bus_id", l.upstream_bus_id.empty() ? json(nullptr) : json(l.upstream_bus_id)},
          {"upstream_current", link_json(l.upstream_current)},
          {"upstream_max", link_json(l.upstream_max)},
          {"usable", link_json(l.usable())},
          {"hwloc_GBps", l.hwloc_GBps ? json(*l.hwloc_GBps) : json(nullptr)}};
}

json device_json(const NodeTopology& t, const Device& d) {
  json bridges = json::array();
  for (auto it = d.ancestors.rbegin(); it != d.ancestors.rend(); ++it)
    bridges.push_back({{"kind", it->kind == Ancestor::Kind::host_bridge ? "host" : "pci"},
                       {"bus_id", it->bus_id.empty() ? json(nullptr) : json(it->bus_id)},
                       {"label", it->label}});
  json j = {{"bus_id", d.bus_id},
            {"kind", to_string(d.kind)},
            {"vendor_id", d.vendor_id ? json(hex(d.vendor_id, 4)) : json(nullptr)},
            {"device_id", d.device_id ? json(hex(d.device_id, 4)) : json(nullptr)},
            {"class", hex(d.class_id, 4)},
            {"name", d.name},
            {"numa_node", or_null(d.numa(), -1)},
            {"numa_nodes", d.numa_nodes},
            {"package", or_null(d.package, -1)},
            {"cpus", d.cpus},
            {"os_devices", {{"net", d.netdevs}, {"rdma", d.rdma_devs}, {"gpu", d.gpu_devs}}},
            {"bridges", bridges},
            {"pcie", pcie_json(d.link)}};
  if (d.kind == DeviceKind::gpu) j["cuda_ordinal"] = or_null(d.cuda_ordinal, -1);
  if (d.kind == DeviceKind::nic) {
    const double rate = nic_line_rate_Gbps(t, d);
    j["line_rate_Gbps"] = rate > 0 ? json(rate) : json(nullptr);
  }
  return j;
}

// The RDMA device and port whose netdev is this interface (RoCE), or the RDMA devices of its PCI
// function: "mlx5_0/1"; "" when none.
std::string rdma_of(const NodeTopology& t, const NetInterface& i) {
  for (const auto& r : t.rdma)
    for (const auto& p : r.ports)
      if (p.netdev == i.name) return r.name + "/" + std::to_string(p.port);
  const Device* d = i.bus_id.empty() ? nullptr : t.find_device(i.bus_id);
  return d && !d->rdma_devs.empty() ? d->rdma_devs.front() : "";
}

json interface_json(const NodeTopology& t, const NetInterface& i) {
  const Device* d = i.bus_id.empty() ? nullptr : t.find_device(i.bus_id);
  const std::string rdma = rdma_of(t, i);
  return {{"name", i.name},
          {"kind", to_string(i.kind)},
          {"bus_id", i.bus_id.empty() ? json(nullptr) : json(i.bus_id)},
          {"speed_Mbps", i.speed_Mbps ? json(*i.speed_Mbps) : json(nullptr)},
          {"mtu", i.mtu},
          {"shaped_rate_bps", i.shaped_rate_bps > 0 ? json(i.shaped_rate_bps) : json(nullptr)},
          {"numa_node", d ? or_null(d->numa(), -1) : json(nullptr)},
          {"rdma", rdma.empty() ? json(nullptr) : json(rdma)},
          {"operstate", i.operstate},
          {"driver", i.driver},
          {"mac", i.mac},
          {"addresses", i.addresses},
          {"port_type", i.port_type.empty() ? json(nullptr) : json(i.port_type)},
          {"members", i.members},
          {"bond_mode", i.bond_mode.empty() ? json(nullptr) : json(i.bond_mode)},
          {"master", i.master.empty() ? json(nullptr) : json(i.master)},
          {"vlan_parent", i.vlan_parent.empty() ? json(nullptr) : json(i.vlan_parent)},
          {"vlan_id", or_null(i.vlan_id, -1)}};
}

json rdma_json(const RdmaDevice& r) {
  json ports = json::array();
  for (const auto& p : r.ports)
    ports.push_back({{"port", p.port},
                     {"state", p.state},
                     {"phys_state", p.phys_state},
                     {"link_layer", p.link_layer},
                     {"active_mtu", or_null(p.active_mtu, 0)},
                     {"active_mtu_source", p.active_mtu_source},
                     {"rate_Gbps", p.rate_Gbps},
                     {"data_rate_Gbps", p.data_rate_Gbps},
                     {"lanes", or_null(p.lanes, 0)},
                     {"speed_name", p.speed_name},
                     {"roce_v2_gid", p.roce_v2_gid},
                     {"netdev", p.netdev.empty() ? json(nullptr) : json(p.netdev)}});
  return {{"name", r.name}, {"bus_id", r.bus_id.empty() ? json(nullptr) : json(r.bus_id)}, {"ports", ports}};
}

// The path matrix as data (render.hpp's PathMatrix), rows and columns by label, devices by bus id.
json matrix_json(const NodeTopology& t) {
  const PathMatrix m = path_matrix(t);
  json devices = json::array();
  for (const Device* d : m.devices) devices.push_back(d->bus_id);
  return {{"labels", m.labels},
          {"devices", devices},
          {"cells", m.cells},
          {"cpu_affinity", m.cpu_affinity},
          {"numa_affinity", m.numa_affinity}};
}

}  // namespace

json to_json(const NodeTopology& t) {
  json numa = json::array();
  for (const auto& n : t.cpu.numa_nodes)
    numa.push_back({{"os_index", n.os_index}, {"package", or_null(n.package, -1)}, {"cpus", n.cpus}});
  json gpus = json::array(), nics = json::array(), interfaces = json::array(), rdma = json::array(),
       pairs = json::array();
  for (const auto& d : t.devices) (d.kind == DeviceKind::gpu ? gpus : nics).push_back(device_json(t, d));
  // Each GPU's nearest NIC (pairing.hpp), with the interfaces its traffic to other nodes takes: what a
  // rail's report names as the GPUs behind it. One entry per GPU, in the order of `gpus`.
  const auto paired = gpu_nic_pairing(t);
  for (size_t k = 0; k < paired.size() && k < gpus.size(); ++k)
    if (paired[k].nic)
      gpus[k]["nearest_nic"] = {{"bus_id", paired[k].nic->bus_id},
                                {"class", to_string(paired[k].path.cls)},
                                {"interfaces", carrying_interfaces(t, *paired[k].nic)}};
  for (const auto& i : t.interfaces) interfaces.push_back(interface_json(t, i));
  for (const auto& r : t.rdma) rdma.push_back(rdma_json(r));
  for (const auto& p : gpu_pairs(t)) {
    json pair = {{"a", p.a}, {"b", p.b}, {"class", to_string(p.path.cls)}};
    if (p.path.cls == PathClass::SYS) pair["same_package"] = p.path.same_package;
    pairs.push_back(pair);
  }
  return {{"hostname", t.hostname},
          {"source", t.source},
          {"format", to_string(t.format)},
          {"cpu",
           {{"packages", or_null(t.cpu.packages, 0)},
            {"cores", or_null(t.cpu.cores, 0)},
            {"pus", or_null(t.cpu.pus, 0)},
            {"numa_nodes", numa}}},
          {"gpus", gpus},
          {"nics", nics},
          {"pairs", pairs},
          {"interfaces", interfaces},
          {"rdma", rdma},
          {"default_route_interfaces", t.default_route_interfaces},
          {"pcie_note", kIdleLinkNote},
          {"notes", t.notes},
          {"matrix", matrix_json(t)},
          {"matrix_text", render_matrix(t)}};
}

json to_json(const Finding& f) {
  return {{"severity", to_string(f.severity)},
          {"kind", f.kind},
          {"message", f.message},
          {"subjects", f.subjects},
          {"node", f.node}};
}

Finding finding_from_json(const json& j) {
  Finding f;
  f.severity = severity_from_string(j.at("severity").get<std::string>());
  j.at("kind").get_to(f.kind);
  j.at("message").get_to(f.message);
  j.at("subjects").get_to(f.subjects);
  j.at("node").get_to(f.node);
  return f;
}

}  // namespace gpunet::topo
