#include "topology/findings.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "topology/bond_findings.hpp"
#include "topology/pairing.hpp"
#include "topology/paths.hpp"
#include "topology/pcie.hpp"

namespace gpunet::topo {

namespace {

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// "GPU 0000:04:00.0", or "NIC 0000:5f:00.0 (ib0, mlx5_0)".
std::string device_name(const Device& d) {
  std::string names;
  for (const auto& n : d.netdevs) names += (names.empty() ? "" : ", ") + n;
  for (const auto& n : d.rdma_devs) names += (names.empty() ? "" : ", ") + n;
  return to_string(d.kind) + " " + d.bus_id + (names.empty() ? "" : " (" + names + ")");
}

std::string list_text(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

void link_findings(const NodeTopology& t, const Device& d, std::vector<Finding>& out) {
  const PcieLink& l = d.link;
  const LinkState usable = l.usable();
  const std::string who = device_name(d);
  if (usable.width && l.current.width && l.current.width < usable.width)
    out.push_back({Severity::warning, "pcie_width_below_max",
                   who + " trained its PCIe link at x" + std::to_string(l.current.width) + " but can use x" +
                       std::to_string(usable.width) + ", which leaves " +
                       fixed(pcie_GBps(usable.gen, l.current.width), 2) + " GB/s instead of " +
                       fixed(pcie_GBps(usable), 2) + " GB/s.",
                   {d.bus_id}, t.hostname});
  if (usable.gen && l.current.gen && l.current.gen < usable.gen) {
    const bool gpu = d.kind == DeviceKind::gpu;
    out.push_back({gpu ? Severity::info : Severity::warning, "pcie_speed_below_max",
                   who + " runs its PCIe link at Gen" + std::to_string(l.current.gen) + " but can use Gen" +
                       std::to_string(usable.gen) +
                       (gpu ? "; idle GPUs lower their link speed, so check it again while the GPU is busy."
                            : ", which limits its bandwidth."),
                   {d.bus_id}, t.hostname});
  }
  const LinkState& dev = l.max;
  const LinkState& up = l.upstream_max;
  if (dev.known() && up.known() && (up.gen < dev.gen || up.width < dev.width))
    out.push_back({Severity::warning, "pcie_slot_limits_device",
                   who + " can do " + describe(dev) + " but the port above it (" + l.upstream_bus_id +
                       ") allows only " + describe(up) + ", so it gets " + fixed(pcie_GBps(usable), 2) +
                       " GB/s instead of " + fixed(pcie_GBps(dev), 2) + " GB/s.",
                   {d.bus_id}, t.hostname});
}

// GPUs grouped by the message tail that describes their nearest NIC(s).
using Groups = std::map<std::string, std::vector<std::string>>;

void emit_groups(const NodeTopology& t, const Groups& groups, Severity severity, const std::string& kind,
                 const std::string& verb_one, const std::string& verb_many, std::vector<Finding>& out) {
  for (const auto& [tail, gpus] : groups) {
    const std::string head = (gpus.size() == 1 ? "GPU " : "GPUs ") + list_text(gpus);
    out.push_back({severity, kind, head + (gpus.size() == 1 ? verb_one : verb_many) + tail, gpus, t.hostname});
  }
}

std::string nic_list(const std::vector<const Device*>& nics) {
  std::vector<std::string> names;
  for (const Device* n : nics) names.push_back(device_name(*n));
  return list_text(names);
}

void locality_findings(const NodeTopology& t, std::vector<Finding>& out) {
  Groups far, sub_numa, numa, numa_same_package;
  for (const Device* g : t.gpus()) {
    if (const auto rdma = nearest_nics(t, *g, true); !rdma.empty()) {
      const Path p = classify_path(*g, *rdma.front(), t.format);
      if (p.cls == PathClass::SYS && p.same_package)
        sub_numa[" on another NUMA node of the same package (sub-NUMA clustering): " + nic_list(rdma) +
                 "; the hop stays inside the package, but NCCL and nvidia-smi count it as SYS."]
            .push_back(g->bus_id);
      else if (p.cls == PathClass::SYS)
        far[" SYS away: " + nic_list(rdma) + ", so GPUDirect RDMA traffic crosses the CPU interconnect."].push_back(
            g->bus_id);
    }
    const auto any = nearest_nics(t, *g, false);
    const bool remote = !any.empty() && g->numa() >= 0 && std::all_of(any.begin(), any.end(), [&](const Device* n) {
      return n->numa() >= 0 && n->numa() != g->numa();
    });
    if (remote) {
      std::vector<std::string> nodes;
      for (const Device* n : any)
        if (const auto v = std::to_string(n->numa()); std::find(nodes.begin(), nodes.end(), v) == nodes.end())
          nodes.push_back(v);
      const bool same_package = g->package >= 0 && std::all_of(any.begin(), any.end(), [&](const Device* n) {
        return n->package == g->package;
      });
      (same_package ? numa_same_package : numa)[" on NUMA node " + std::to_string(g->numa()) + " but " +
                                                (any.size() == 1 ? "the nearest NIC, " : "the nearest NICs, ") +
                                                nic_list(any) + (any.size() == 1 ? ", is" : ", are") +
                                                (nodes.size() == 1 ? " on NUMA node " : " on NUMA nodes ") +
                                                list_text(nodes) +
                                                (same_package ? " of the same package (sub-NUMA clustering)" : "") +
                                                ", so traffic staged through host memory crosses between NUMA nodes."]
          .push_back(g->bus_id);
    }
  }
  emit_groups(t, far, Severity::warning, "gpu_nic_sys", " has its nearest RDMA-capable NIC",
              " have their nearest RDMA-capable NIC", out);
  emit_groups(t, sub_numa, Severity::info, "gpu_nic_sys", " has its nearest RDMA-capable NIC",
              " have their nearest RDMA-capable NIC", out);
  emit_groups(t, numa, Severity::warning, "gpu_nic_numa", " is", " are", out);
  emit_groups(t, numa_same_package, Severity::info, "gpu_nic_numa", " is", " are", out);
}

void nic_findings(const NodeTopology& t, const AnalyzeContext& ctx, std::vector<Finding>& out) {
  double fastest = 0;
  for (const Device* n : t.nics()) {
    const double rate = nic_line_rate_Gbps(t, *n);
    fastest = std::max(fastest, rate);
    const LinkState usable = n->link.usable().known() ? n->link.usable() : n->link.current;
    const double pcie_Gbps = pcie_GBps(usable) * 8.0;
    if (rate > 0 && pcie_Gbps > 0 && pcie_Gbps < rate)
      out.push_back({Severity::warning, "nic_pcie_below_line_rate",
                     device_name(*n) + " has a " + rate_text(rate) + " line rate but its PCIe link (" +
                         describe(usable) + ") carries only " + fixed(pcie_Gbps, 1) + " Gb/s.",
                     {n->bus_id}, t.hostname});
  }
  for (const auto& i : t.interfaces)
    if (i.kind == IfKind::bond && i.speed_Mbps) fastest = std::max(fastest, static_cast<double>(*i.speed_Mbps) / 1000.0);
  if (ctx.multi_node && fastest > 0 && fastest <= 10.0)
    out.push_back({Severity::warning, "slow_network",
                   "The fastest NIC on this node runs at " + rate_text(fastest) +
                       ", so a multi-node run gets at most about " + fixed(fastest / 8.0, 2) + " GB/s per node.",
                   {}, t.hostname});

  const bool rdma = !t.rdma.empty() || std::any_of(t.devices.begin(), t.devices.end(),
                                                   [](const Device& d) { return d.rdma_capable(); });
  if (!rdma)
    out.push_back({ctx.multi_node ? Severity::warning : Severity::info, "no_rdma",
                   "This node has no RDMA device (InfiniBand, RoCE or EFA), so traffic between nodes goes through "
                   "TCP sockets.",
                   {}, t.hostname});
}

void route_findings(const NodeTopology& t, const AnalyzeContext& ctx, std::vector<Finding>& out) {
  const auto& routes = t.default_route_interfaces;
  auto is_default = [&](const std::string& name) { return std::find(routes.begin(), routes.end(), name) != routes.end(); };
  if (!ctx.data_interface.empty()) {
    if (is_default(ctx.data_interface))
      out.push_back({Severity::warning, "default_route_data",
                     "Data traffic is set to use " + ctx.data_interface +
                         ", the interface of the default route, which is often the management network.",
                     {ctx.data_interface}, t.hostname});
    return;
  }
  if (!ctx.multi_node || t.rdma.size() > 0) return;
  std::vector<std::string> up;
  for (const auto& i : t.interfaces)
    if (i.operstate == "up" && (i.kind == IfKind::physical || i.kind == IfKind::bond || i.kind == IfKind::vlan) &&
        i.master.empty())
      up.push_back(i.name);
  if (up.size() == 1 && is_default(up.front()))
    out.push_back({Severity::warning, "default_route_data",
                   "Data traffic between nodes will use " + up.front() +
                       ", the only interface that is up and the one of the default route, which is often the "
                       "management network.",
                   {up.front()}, t.hostname});
}

}  // namespace

std::string to_string(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "info";
}

Severity severity_from_string(const std::string& s) {
  if (s == "info") return Severity::info;
  if (s == "warning") return Severity::warning;
  if (s == "error") return Severity::error;
  throw std::invalid_argument("unknown severity '" + s + "'");
}

std::string rate_text(double Gbps) { return fixed(Gbps, Gbps == static_cast<int>(Gbps) ? 0 : 1) + " Gb/s"; }

double nic_line_rate_Gbps(const NodeTopology& t, const Device& nic) {
  double best = 0;
  for (const auto& name : nic.netdevs)
    if (const NetInterface* i = t.find_interface(name); i && i->speed_Mbps)
      best = std::max(best, static_cast<double>(*i->speed_Mbps) / 1000.0);
  if (best > 0) return best;
  for (const auto& name : nic.rdma_devs)
    if (const RdmaDevice* r = t.find_rdma(name))
      for (const auto& p : r->ports)
        if (p.state.empty() || p.state == "ACTIVE") best = std::max(best, p.data_rate_Gbps);
  return best;
}

std::vector<Finding> analyze(const NodeTopology& t, const AnalyzeContext& ctx) {
  std::vector<Finding> out;
  for (const auto& d : t.devices) link_findings(t, d, out);
  locality_findings(t, out);
  pairing_findings(t, out);
  bond_findings(t, out);
  nic_findings(t, ctx, out);
  route_findings(t, ctx, out);
  for (const auto& line : t.unread)
    out.push_back({Severity::warning, "unreadable_object",
                   "A device of the topology file could not be read and is missing from this analysis: " + line, {}, t.hostname});
  return out;
}

}  // namespace gpunet::topo
