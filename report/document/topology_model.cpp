#include "report/document/topology_model.hpp"

#include <algorithm>

#include "report/model/json_access.hpp"
#include "report/judge/networks.hpp"
#include "report/analysis/topology_view.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

std::vector<std::string> string_list(const json& j, const char* key) {
  std::vector<std::string> out;
  if (const json* a = jsonx::array_at(j, key))
    for (const auto& s : *a)
      if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

std::optional<TopoLinkState> link_state(const json& j, const char* gen_key, const char* width_key) {
  const auto gen = jsonx::integer(j, gen_key), width = jsonx::integer(j, width_key);
  if (!gen && !width) return std::nullopt;
  return TopoLinkState{gen.value_or(0), width.value_or(0)};
}

std::optional<TopoLinkState> nested_link(const json& pcie, const char* key) {
  const json* s = jsonx::object_at(pcie, key);
  return s ? link_state(*s, "gen", "width") : std::nullopt;
}

std::optional<int> numa_of(const json& d) {
  if (auto n = jsonx::integer(d, "numa_node")) return n;
  return jsonx::integer(d, "numa");
}

TopoDevice device_of(const json& d, const std::string& label) {
  TopoDevice out;
  out.label = label;
  out.bus_id = jsonx::string(d, "bus_id").value_or(jsonx::string(d, "bdf").value_or(""));
  out.name = jsonx::string(d, "name").value_or("");
  const json& os = jsonx::section(d, "os_devices");
  for (const char* k : {"net", "rdma", "gpu"})
    for (auto& n : string_list(os, k)) out.os_names.push_back(std::move(n));
  if (auto c = jsonx::integer(d, "cuda_ordinal")) {
    const std::string cuda = "cuda" + std::to_string(*c);
    if (std::find(out.os_names.begin(), out.os_names.end(), cuda) == out.os_names.end()) out.os_names.push_back(cuda);
  }
  out.numa = numa_of(d);
  const json& pcie = jsonx::section(d, "pcie");
  if (pcie.contains("current") || pcie.contains("max") || pcie.contains("usable")) {  // null = unknown
    out.current = nested_link(pcie, "current");
    out.max = nested_link(pcie, "max");
    out.usable = nested_link(pcie, "usable");
    if (auto h = jsonx::number(pcie, "hwloc_GBps"); h && *h > 0) out.hwloc_GBps = h;
  } else {  // the short shape: no upstream port, so the device's own maximum is what it can use
    out.current = link_state(pcie, "gen", "width");
    out.max = link_state(pcie, "max_gen", "max_width");
    out.usable = out.max;
  }
  return out;
}

std::optional<TopoMatrix> matrix_of(const json& node) {
  const json* m = jsonx::object_at(node, "matrix");
  if (!m) return std::nullopt;
  TopoMatrix out;
  out.labels = string_list(*m, "labels");
  const json* cells = jsonx::array_at(*m, "cells");
  if (out.labels.empty() || !cells || cells->size() != out.labels.size()) return std::nullopt;
  for (const auto& row : *cells) {
    if (!row.is_array() || row.size() != out.labels.size()) return std::nullopt;
    auto& r = out.cells.emplace_back();
    for (const auto& c : row) r.push_back(c.is_string() ? c.get<std::string>() : c.dump());
  }
  out.cpu_affinity = string_list(*m, "cpu_affinity");
  out.numa_affinity = string_list(*m, "numa_affinity");
  if (out.cpu_affinity.size() != out.labels.size()) out.cpu_affinity.clear();
  if (out.numa_affinity.size() != out.labels.size()) out.numa_affinity.clear();
  return out;
}

TopoCpu cpu_of(const json& node) {
  TopoCpu out;
  const json& cpu = jsonx::section(node, "cpu");
  out.packages = jsonx::integer(cpu, "packages");
  out.cores = jsonx::integer(cpu, "cores");
  out.pus = jsonx::integer(cpu, "pus");
  if (const json* numa = jsonx::array_at(cpu, "numa_nodes"))
    for (const auto& n : *numa)
      if (auto idx = jsonx::integer(n, "os_index"))
        out.numa.push_back({*idx, jsonx::integer(n, "package"), jsonx::string(n, "cpus").value_or("")});
  return out;
}

const TopoDevice* device_with(const std::vector<TopoDevice>& nics, const std::string& bus_id, const std::string& name) {
  for (const auto& d : nics)
    if ((!bus_id.empty() && d.bus_id == bus_id) ||
        (!name.empty() && std::find(d.os_names.begin(), d.os_names.end(), name) != d.os_names.end()))
      return &d;
  return nullptr;
}

std::optional<double> gbps(std::optional<double> mbps) {
  if (!mbps || *mbps <= 0) return std::nullopt;
  return *mbps / 1000.0;
}

// The interfaces of the full shape: every listed interface, then each NIC's netdevs and RDMA
// devices that no interface row names (hwloc exports have no interface list).
std::vector<TopoInterface> interfaces_full(const json& node, const std::vector<TopoDevice>& nics) {
  std::vector<TopoInterface> out;
  std::vector<std::string> covered;
  if (const json* list = jsonx::array_at(node, "interfaces"))
    for (const auto& i : *list) {
      TopoInterface t;
      t.name = jsonx::string(i, "name").value_or("");
      if (t.name.empty()) continue;
      t.kind = jsonx::string(i, "kind").value_or("");
      const TopoDevice* d = device_with(nics, jsonx::string(i, "bus_id").value_or(""), t.name);
      t.device = d ? d->label : "";
      t.speed_Gbps = gbps(jsonx::number(i, "speed_Mbps"));
      if (auto s = jsonx::number(i, "shaped_rate_bps"); s && *s > 0) t.shaped_Gbps = *s / 1e9;
      if (auto m = jsonx::integer(i, "mtu"); m && *m > 0) t.mtu = m;
      t.numa = numa_of(i);
      if (!t.numa && d) t.numa = d->numa;
      t.rdma = jsonx::string(i, "rdma").value_or("");
      t.state = jsonx::string(i, "operstate").value_or("");
      covered.push_back(t.name);
      if (!t.rdma.empty()) covered.push_back(t.rdma.substr(0, t.rdma.find('/')));
      out.push_back(std::move(t));
    }
  const json* rdma = jsonx::array_at(node, "rdma");
  for (const auto& d : nics) {
    const json* nic = nullptr;
    if (const json* a = jsonx::array_at(node, "nics"))
      for (const auto& x : *a)
        if (jsonx::string(x, "bus_id") == d.bus_id) nic = &x;
    static const json kNoDevices = json::object();
    const json& os = nic ? jsonx::section(*nic, "os_devices") : kNoDevices;
    const auto nets = string_list(os, "net");
    const auto rdmas = string_list(os, "rdma");
    const std::string rdma_name = rdmas.empty() ? "" : rdmas.front();
    auto uncovered = [&](const std::string& n) { return std::find(covered.begin(), covered.end(), n) == covered.end(); };
    std::vector<std::string> names;
    for (const auto& n : nets)
      if (uncovered(n)) names.push_back(n);
    if (nets.empty() && !rdma_name.empty() && uncovered(rdma_name)) names.push_back(rdma_name);
    for (const auto& n : names) {
      TopoInterface t;
      t.name = n;
      t.device = d.label;
      t.numa = d.numa;
      t.rdma = rdma_name;
      if (nic)
        if (auto r = jsonx::number(*nic, "line_rate_Gbps"); r && *r > 0) t.speed_Gbps = r;
      // An InfiniBand port without a netdev: its rate and MTU from the RDMA port.
      if (rdma && n == rdma_name)
        for (const auto& r : *rdma)
          if (jsonx::string(r, "name") == rdma_name)
            if (const json* ports = jsonx::array_at(r, "ports"); ports && !ports->empty()) {
              const json& p = ports->front();
              t.kind = jsonx::string(p, "link_layer").value_or("");
              if (auto v = jsonx::number(p, "data_rate_Gbps"); v && *v > 0) t.speed_Gbps = v;
              if (auto m = jsonx::integer(p, "active_mtu"); m && *m > 0) t.mtu = m;
            }
      out.push_back(std::move(t));
    }
  }
  return out;
}

// The short shape: each NIC entry is an interface.
std::vector<TopoInterface> interfaces_short(const json& node, const std::vector<TopoDevice>& nics) {
  std::vector<TopoInterface> out;
  const json* list = jsonx::array_at(node, "nics");
  if (!list) return out;
  for (size_t k = 0; k < list->size(); ++k) {
    const json& x = (*list)[k];
    TopoInterface t;
    t.name = jsonx::string(x, "name").value_or(jsonx::string(x, "netdev").value_or(""));
    t.kind = jsonx::string(x, "kind").value_or("");
    t.device = k < nics.size() ? nics[k].label : "";
    t.speed_Gbps = gbps(jsonx::number(x, "speed_Mbps"));
    if (!t.speed_Gbps)
      if (auto r = jsonx::number(x, "rate_Gbps"); r && *r > 0) t.speed_Gbps = r;
    if (auto m = jsonx::integer(x, "mtu"); m && *m > 0) t.mtu = m;
    t.numa = numa_of(x);
    if (t.kind == "infiniband" || t.kind == "roce" || jsonx::string(x, "link_layer")) t.rdma = t.name;
    out.push_back(std::move(t));
  }
  return out;
}

void add_role(TopoInterface& i, const std::string& role) {
  if (std::find(i.roles.begin(), i.roles.end(), role) == i.roles.end()) i.roles.push_back(role);
}

void add_roles(const Report& rep, const std::string& host, const json& node, std::vector<TopoInterface>& interfaces) {
  const auto routes = string_list(node, "default_route_interfaces");
  const auto mpi = string_list(node, "mpi_interfaces");
  const auto used = interfaces_used(rep);
  for (auto& i : interfaces) {
    const std::string rdma_dev = i.rdma.substr(0, i.rdma.find('/'));
    for (const auto& u : used)
      if (u.host == host && (u.iface == i.name || (!rdma_dev.empty() && u.iface == rdma_dev)))
        for (const auto& r : u.roles)
          if (r != "default route") add_role(i, "benchmark traffic (" + r + ")");
    if (std::find(mpi.begin(), mpi.end(), i.name) != mpi.end()) add_role(i, "MPI and control traffic");
    if (std::find(routes.begin(), routes.end(), i.name) != routes.end()) add_role(i, "default route");
  }
}

std::vector<TopoFinding> findings_of(const json& list) {
  std::vector<TopoFinding> out;
  if (list.is_array())
    for (const auto& f : list)
      if (auto m = jsonx::string(f, "message")) out.push_back({jsonx::string(f, "severity").value_or("note"), *m});
  return out;
}

}  // namespace

bool same_kind(const NodeTopologyModel& a, const NodeTopologyModel& b) {
  NodeTopologyModel x = a;
  x.host = b.host;
  return x == b;
}

NodeTopologyModel node_topology_model(const Report& rep, const std::string& host) {
  NodeTopologyModel m;
  m.host = host;
  const TopologyView view(rep.topology);
  const json* node = view.node(host);
  if (!node) return m;
  m.format = jsonx::string(*node, "format").value_or("");
  m.cpu = cpu_of(*node);
  const json* gpus = jsonx::array_at(*node, "gpus");
  const json* nics = jsonx::array_at(*node, "nics");
  if (gpus)
    for (const auto& g : *gpus) m.gpus.push_back(device_of(g, "GPU" + std::to_string(m.gpus.size())));
  if (nics)
    for (const auto& n : *nics) m.nics.push_back(device_of(n, "NIC" + std::to_string(m.nics.size())));
  if (!m.gpus.empty()) m.matrix = matrix_of(*node);
  const bool full = jsonx::array_at(*node, "interfaces") || jsonx::object_at(*node, "cpu");
  m.interfaces = full ? interfaces_full(*node, m.nics) : interfaces_short(*node, m.nics);
  add_roles(rep, host, *node, m.interfaces);
  for (const auto& r : rep.results)
    if (record_kind(r) == RecordKind::topology_node && (r.variant == host || (r.variant.empty() && r.host == host)))
      for (auto& f : findings_of(r.extra.is_object() && r.extra.contains("findings") ? r.extra["findings"] : json()))
        m.findings.push_back(std::move(f));
  m.notes = string_list(*node, "notes");
  return m;
}

TopologyOverview topology_overview(const Report& rep) {
  TopologyOverview out;
  const TopologyView view(rep.topology);
  std::vector<std::string> hosts;
  for (const auto& h : rep.provenance.hosts)
    if (view.node(h) && std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  for (const auto& h : view.hosts())
    if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  for (const auto& h : hosts) {
    NodeTopologyModel m = node_topology_model(rep, h);
    auto it = std::find_if(out.kinds.begin(), out.kinds.end(), [&](const TopologyKind& k) { return same_kind(k.model, m); });
    if (it != out.kinds.end()) it->hosts.push_back(h);
    else out.kinds.push_back({{h}, std::move(m)});
  }
  for (const auto& r : rep.results)
    if (record_kind(r) == RecordKind::topology_compare)
      for (auto& f : findings_of(r.extra.is_object() && r.extra.contains("findings") ? r.extra["findings"] : json()))
        out.across_nodes.push_back(std::move(f));
  return out;
}

}  // namespace gpunet::report
