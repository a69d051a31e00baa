#include "topology/render.hpp"

#include "common/strings.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "topology/pairing.hpp"
#include "topology/paths.hpp"
#include "topology/pcie.hpp"

namespace gpunet::topo {

namespace {

std::string pad(const std::string& s, size_t width) { return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' '); }

std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

struct Labelled {
  std::string label;
  const Device* device;
};

std::vector<Labelled> labelled_devices(const NodeTopology& t) {
  std::vector<Labelled> out;
  const auto gpus = t.gpus();
  const auto nics = t.nics();
  for (size_t i = 0; i < gpus.size(); ++i) out.push_back({"GPU" + std::to_string(i), gpus[i]});
  for (size_t i = 0; i < nics.size(); ++i) out.push_back({"NIC" + std::to_string(i), nics[i]});
  return out;
}

void matrix(std::ostringstream& os, const PathMatrix& m) {
  constexpr size_t kCell = 7;
  os << pad("", kCell);
  for (const auto& l : m.labels) os << pad(l, kCell);
  os << pad("CPU Affinity", 16) << "NUMA Affinity\n";
  for (size_t r = 0; r < m.labels.size(); ++r) {
    os << pad(m.labels[r], kCell);
    for (const auto& cell : m.cells[r]) os << pad(cell, kCell);
    os << pad(m.cpu_affinity[r], 16) << m.numa_affinity[r] << "\n";
  }
}

void legend(std::ostringstream& os, const NodeTopology& t, bool sub_numa) {
  os << "\nLegend:\n\n"
        "  X    = the device itself\n"
        "  SYS  = path crosses the interconnect between NUMA nodes (UPI, Infinity Fabric, X-Bus)\n";
  if (sub_numa) os << "  SYS* = SYS between sub-NUMA domains of one package (SNC/NPS): no socket-to-socket hop\n";
  os << "  NODE = path crosses the link between PCIe host bridges inside one NUMA node\n"
        "  PHB  = path crosses a PCIe host bridge (the CPU's root complex)\n"
        "  PXB  = path crosses several PCIe bridges, but no host bridge\n"
        "  PIX  = path crosses at most one PCIe bridge (one PCIe switch)\n";
  if (t.format == SourceFormat::nccl_xml)
    os << "  (from an NCCL topology file: PHB also stands for NODE, as NCCL does not tell them apart)\n";
}

void device_legend(std::ostringstream& os, const std::vector<Labelled>& devs) {
  os << "\nDevice Legend:\n\n";
  for (const auto& [label, d] : devs) {
    std::vector<std::string> names = d->netdevs;
    names.insert(names.end(), d->rdma_devs.begin(), d->rdma_devs.end());
    if (d->cuda_ordinal >= 0) names.push_back("cuda" + std::to_string(d->cuda_ordinal));
    os << "  " << pad(label + ":", 7) << d->bus_id << (names.empty() ? "" : "  " + join(names, ", "))
       << (d->name.empty() ? "" : "  " + d->name) << "\n";
  }
}

void link_table(std::ostringstream& os, const std::vector<Labelled>& devs) {
  os << "\nPCIe links (usable = the lower of the device's and its upstream port's maximum):\n\n  "
     << pad("", 6) << pad("current", 10) << pad("max", 10) << pad("upstream", 10) << pad("usable", 10)
     << pad("GB/s", 8) << "hwloc GB/s\n";
  for (const auto& [label, d] : devs) {
    const PcieLink& l = d->link;
    const double GBps = pcie_GBps(l.usable());
    os << "  " << pad(label, 6) << pad(describe(l.current), 10) << pad(describe(l.max), 10)
       << pad(describe(l.upstream_max), 10) << pad(describe(l.usable()), 10) << pad(GBps > 0 ? fixed2(GBps) : "-", 8)
       << (l.hwloc_GBps ? fixed2(*l.hwloc_GBps) : "-") << "\n";
  }
  if (std::any_of(devs.begin(), devs.end(), [](const Labelled& l) { return l.device->kind == DeviceKind::gpu; }))
    os << "  " << kIdleLinkNote << "\n";
}

void nic_table(std::ostringstream& os, const NodeTopology& t, const std::vector<Labelled>& devs) {
  bool header = false;
  for (const auto& [label, d] : devs) {
    if (d->kind != DeviceKind::nic) continue;
    for (const auto& name : d->netdevs) {
      const NetInterface* i = t.find_interface(name);
      if (!i) continue;
      if (!header) os << "\nNetwork interfaces:\n\n";
      header = true;
      os << "  " << pad(label, 6) << pad(i->name, 12)
         << pad(i->speed_Mbps ? std::to_string(*i->speed_Mbps / 1000) + " Gb/s" : "speed ?", 10)
         << pad("MTU " + std::to_string(i->mtu), 10) << pad(i->operstate, 8) << pad(i->driver, 12)
         << (i->port_type.empty() ? "" : i->port_type) << (i->master.empty() ? "" : "  in " + i->master) << "\n";
    }
    for (const auto& name : d->rdma_devs) {
      const RdmaDevice* r = t.find_rdma(name);
      if (!r) continue;
      if (!header) os << "\nNetwork interfaces:\n\n";
      header = true;
      for (const auto& p : r->ports)
        os << "  " << pad(label, 6) << pad(r->name + "/" + std::to_string(p.port), 12)
           << pad(fixed2(p.data_rate_Gbps) + " Gb/s", 14) << pad(p.state, 8) << pad(p.link_layer, 12)
           << (p.active_mtu ? "MTU " + std::to_string(p.active_mtu) : std::string("MTU ?"))
           << (p.link_layer == "Ethernet" ? (p.roce_v2_gid ? "  RoCE v2 GID" : "  no RoCE v2 GID") : "") << "\n";
    }
  }
  for (const auto& i : t.interfaces)
    if (i.kind == IfKind::bond || i.kind == IfKind::vlan) {
      if (!header) os << "\nNetwork interfaces:\n\n";
      header = true;
      os << "  " << pad(to_string(i.kind), 6) << pad(i.name, 12)
         << (i.kind == IfKind::bond ? "members " + join(i.members, ",") + (i.bond_mode.empty() ? "" : " mode " + i.bond_mode)
                                    : "on " + i.vlan_parent + " id " + std::to_string(i.vlan_id))
         << "  MTU " << i.mtu << "\n";
    }
}

}  // namespace

PathMatrix path_matrix(const NodeTopology& t) {
  PathMatrix m;
  for (const auto& [label, device] : labelled_devices(t)) {
    m.labels.push_back(label);
    m.devices.push_back(device);
  }
  for (const Device* row : m.devices) {
    auto& cells = m.cells.emplace_back();
    for (const Device* col : m.devices) {
      const Path p = classify_path(*row, *col, t.format);
      const bool star = p.cls == PathClass::SYS && p.same_package;
      m.sub_numa = m.sub_numa || star;
      cells.push_back(to_string(p.cls) + (star ? "*" : ""));
    }
    std::vector<std::string> numa;
    for (int n : row->numa_nodes) numa.push_back(std::to_string(n));
    m.cpu_affinity.push_back(row->cpus.empty() ? "N/A" : row->cpus);
    m.numa_affinity.push_back(numa.empty() ? "N/A" : join(numa, ","));
  }
  return m;
}

std::string render_matrix(const NodeTopology& t) {
  std::ostringstream os;
  os << "Topology of " << t.hostname << " (" << to_string(t.format) << (t.format == SourceFormat::live ? "" : ": " + t.source)
     << "): " << t.gpus().size() << " GPU(s), " << t.nics().size() << " NIC(s), "
     << (t.cpu.packages ? std::to_string(t.cpu.packages) : std::string("?")) << " package(s), "
     << t.cpu.numa_nodes.size() << " NUMA node(s)\n\n";
  const auto devs = labelled_devices(t);
  if (devs.empty()) {
    os << "No GPU or NIC found.\n";
    return os.str();
  }
  const PathMatrix m = path_matrix(t);
  matrix(os, m);
  legend(os, t, m.sub_numa);
  device_legend(os, devs);
  link_table(os, devs);
  nic_table(os, t, devs);
  for (const auto& n : t.notes) os << "\nNote: " << n << "\n";
  return os.str();
}

std::string render_pairing(const NodeTopology& t) {
  const auto pairs = gpu_nic_pairing(t);
  if (pairs.empty()) return "";
  const PathMatrix m = path_matrix(t);
  auto label = [&](const Device* d) {
    const auto it = std::find(m.devices.begin(), m.devices.end(), d);
    return it == m.devices.end() ? std::string("?") : m.labels[static_cast<size_t>(it - m.devices.begin())];
  };
  auto numa = [](const Device& d) { return d.numa() >= 0 ? std::to_string(d.numa()) : std::string("?"); };
  std::ostringstream os;
  os << "GPU-NIC pairing (each GPU's nearest NIC for traffic to other nodes; GPUs at equal distance take turns):\n";
  for (const auto& p : pairs) {
    os << "  " << label(p.gpu) << " " << p.gpu->bus_id << " -> ";
    if (!p.nic) {
      os << "no NIC\n";
      continue;
    }
    os << label(p.nic) << " " << p.nic->bus_id << "  " << to_string(p.path.cls) << (p.path.same_package && p.path.cls == PathClass::SYS ? "*" : "")
       << "  " << (p.same_numa ? "same NUMA node " + numa(*p.gpu) : "NUMA " + numa(*p.gpu) + " / NIC NUMA " + numa(*p.nic)) << "\n";
  }
  return os.str();
}

std::string render_findings(const std::vector<Finding>& findings) {
  if (findings.empty()) return "Findings: none.\n";
  std::vector<const Finding*> sorted;
  for (const auto& f : findings) sorted.push_back(&f);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Finding* a, const Finding* b) { return a->severity > b->severity; });
  std::ostringstream os;
  os << "Findings (" << findings.size() << "):\n";
  for (const Finding* f : sorted)
    os << "  [" << to_string(f->severity) << "] " << (f->node.empty() ? "" : f->node + ": ") << f->message << "\n";
  return os.str();
}

}  // namespace gpunet::topo
