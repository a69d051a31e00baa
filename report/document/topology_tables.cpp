#include "report/document/topology_tables.hpp"

#include "common/strings.hpp"
#include "report/analysis/ceilings.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

namespace {

std::string or_unknown(const std::optional<int>& v) { return v ? std::to_string(*v) : "unknown"; }

std::string heading(const TopologyKind& k) {
  return join(k.hosts, ", ") + (k.hosts.size() > 1 ? " (same topology)" : "");
}

std::string source_text(const std::string& format) {
  if (format == "hwloc-xml") return " (from an hwloc XML export)";
  if (format == "nccl-xml") return " (from an NCCL topology file)";
  return "";
}

std::vector<std::string> summary(const NodeTopologyModel& m) {
  const auto& c = m.cpu;
  const bool cpu_known = c.packages || c.cores || c.pus || !c.numa.empty();
  std::string cpu = !cpu_known ? std::string("CPU: not in the topology") : "CPU: " + (c.packages ? count_of(static_cast<size_t>(*c.packages), "package") : "packages unknown") +
                    ", " + (c.cores ? count_of(static_cast<size_t>(*c.cores), "core") : "cores unknown") + ", " +
                    (c.pus ? count_of(static_cast<size_t>(*c.pus), "hardware thread") : "hardware threads unknown") +
                    "; " + count_of(c.numa.size(), "NUMA node");
  std::vector<std::string> numa;
  for (const auto& n : c.numa)
    numa.push_back("NUMA " + std::to_string(n.os_index) + (n.package ? " (package " + std::to_string(*n.package) + ")" : "") +
                   ": CPUs " + (n.cpus.empty() ? "unknown" : n.cpus));
  if (cpu_known && !numa.empty()) cpu += ": " + join(numa, "; ");
  std::vector<std::string> out{cpu, "Devices: " + count_of(m.gpus.size(), "GPU") + ", " + count_of(m.nics.size(), "NIC") +
                                        ", " + count_of(m.interfaces.size(), "network interface") +
                                        source_text(m.format)};
  return out;
}

TopoTable matrix_table(const TopoMatrix& x) {
  TopoTable t;
  t.title = "GPU/NIC paths (nvidia-smi topo -m)";
  t.header.push_back("");
  t.header.insert(t.header.end(), x.labels.begin(), x.labels.end());
  const bool affinity = !x.cpu_affinity.empty() && !x.numa_affinity.empty();
  if (affinity) {
    t.header.push_back("CPU affinity");
    t.header.push_back("NUMA affinity");
  }
  t.numeric.assign(t.header.size(), false);
  bool sub_numa = false;
  for (size_t i = 0; i < x.labels.size(); ++i) {
    std::vector<std::string> row{x.labels[i]};
    for (const auto& cell : x.cells[i]) {
      row.push_back(cell);
      sub_numa = sub_numa || cell == "SYS*";
    }
    if (affinity) {
      row.push_back(x.cpu_affinity[i]);
      row.push_back(x.numa_affinity[i]);
    }
    t.rows.push_back(std::move(row));
  }
  t.note = "X = the device itself; SYS = crosses the interconnect between NUMA nodes; NODE = crosses host bridges "
           "inside one NUMA node; PHB = crosses a PCIe host bridge; PXB = several PCIe bridges; PIX = at most one "
           "PCIe bridge";
  if (sub_numa) t.note += "; SYS* = SYS between sub-NUMA domains of one package";
  t.note += ".";
  return t;
}

std::string usable_GBps(const TopoDevice& d) {
  if (!d.usable || d.usable->gen <= 0 || d.usable->width <= 0) return "unknown";
  const Ceiling c = pcie_encoded(d.usable->gen, d.usable->width);
  return c.known ? format_figure(c.value) : "unknown";
}

TopoTable link_table(const NodeTopologyModel& m) {
  TopoTable t;
  t.title = "PCIe links";
  bool gpu = false, hwloc = false;
  for (const auto* list : {&m.gpus, &m.nics})
    for (const auto& d : *list) hwloc = hwloc || d.hwloc_GBps.has_value();
  t.header = {"device", "bus id", "model", "names", "NUMA", "current", "max", "usable", "usable (GB/s)"};
  t.numeric = {false, false, false, false, true, false, false, false, true};
  if (hwloc) {
    t.header.push_back("hwloc (GB/s)");
    t.numeric.push_back(true);
  }
  for (const auto* list : {&m.gpus, &m.nics})
    for (const auto& d : *list) {
      gpu = gpu || list == &m.gpus;
      t.rows.push_back({d.label, d.bus_id, d.name, join(d.os_names, ", "), or_unknown(d.numa), link_text(d.current),
                        link_text(d.max), link_text(d.usable), usable_GBps(d)});
      if (hwloc) t.rows.back().push_back(d.hwloc_GBps ? format_figure(*d.hwloc_GBps) : "unknown");
    }
  t.note = "usable = the lower of the device's and its upstream port's maximum; GB/s per direction after line "
           "encoding (1e9 B/s).";
  if (hwloc) t.note += " hwloc = the current link speed the hwloc export states.";
  if (gpu) t.note += " Idle GPUs lower their current link speed; that is expected.";
  return t;
}

std::string speed_text(const TopoInterface& i) {
  const std::string link = i.speed_Gbps ? format_figure(*i.speed_Gbps) : "unknown";
  if (!i.shaped_Gbps) return link;
  return format_figure(*i.shaped_Gbps) + " (tbf shaped; link " + link + ")";
}

TopoTable interface_table(const NodeTopologyModel& m) {
  TopoTable t;
  t.title = "Network interfaces";
  t.header = {"interface", "device", "kind", "speed (Gb/s)", "MTU", "NUMA", "RDMA", "state", "role in this run"};
  t.numeric = {false, false, false, true, true, true, false, false, false};
  t.wrap_last = true;
  for (const auto& i : m.interfaces)
    t.rows.push_back({i.name, i.device.empty() ? "virtual" : i.device, i.kind.empty() ? "unknown" : i.kind, speed_text(i),
                      i.mtu ? std::to_string(*i.mtu) : "unknown",
                      i.numa ? std::to_string(*i.numa) : (i.device.empty() ? "none" : "unknown"),
                      i.rdma.empty() ? "none" : i.rdma, i.state.empty() ? "unknown" : i.state,
                      i.roles.empty() ? "" : join(i.roles, "; ")});
  return t;
}

std::vector<std::string> finding_lines(const std::vector<TopoFinding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) out.push_back(f.severity + ": " + f.message);
  return out;
}

}  // namespace

std::string link_text(const std::optional<TopoLinkState>& s) {
  if (!s || (s->gen <= 0 && s->width <= 0)) return "unknown";
  return "Gen" + (s->gen > 0 ? std::to_string(s->gen) : "?") + " x" + (s->width > 0 ? std::to_string(s->width) : "?");
}

TopoSectionText topology_text(const TopologyOverview& overview) {
  TopoSectionText out;
  for (const auto& k : overview.kinds) {
    const NodeTopologyModel& m = k.model;
    TopoKindSection s;
    s.heading = heading(k);
    s.summary = summary(m);
    if (m.matrix) s.tables.push_back(matrix_table(*m.matrix));
    if (!m.gpus.empty() || !m.nics.empty()) s.tables.push_back(link_table(m));
    if (!m.interfaces.empty()) s.tables.push_back(interface_table(m));
    s.findings = finding_lines(m.findings);
    for (const auto& n : m.notes) s.findings.push_back("note: " + n);
    out.kinds.push_back(std::move(s));
  }
  out.across_nodes = finding_lines(overview.across_nodes);
  if (out.kinds.empty()) out.empty_reason = "No node topology in this report: the topo suite did not run or found nothing.";
  return out;
}

TopoSectionText topology_text(const Report& rep) { return topology_text(topology_overview(rep)); }

}  // namespace gpunet::report
