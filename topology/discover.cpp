#include "topology/topology.hpp"

#include <pugixml.hpp>

#include <algorithm>

#include "common/input_file.hpp"
#include "common/strings.hpp"

#include "topology/cuda_map.hpp"
#include "topology/hwloc_loader.hpp"
#include "topology/live_net.hpp"
#include "topology/nccl_xml.hpp"
#include "topology/rdma_verbs.hpp"
#include "topology/sysfs_net.hpp"
#include "topology/sysfs_pci.hpp"
#include "topology/sysfs_rdma.hpp"
#include "topology/xml_bounded.hpp"

namespace gpunet::topo {

namespace {

// The whole file, read through the bounded reader (regular files only, at most kTopologyInput bytes).
std::string read_input(const std::string& path) {
  std::string text = read_input_file<InputError>(path, kTopologyInput);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(path + ": the file is empty; give an hwloc XML or NCCL topology file");
  return text;
}

// An hwloc export or an NCCL topology, told apart by the root element.
NodeTopology load_topology_text(const std::string& text, const std::string& path) {
  pugi::xml_document doc;
  parse_xml_bounded(doc, text, path);
  const std::string root = doc.document_element().name();
  if (root == "topology") return hwloc_load_document(doc, path);
  if (root == "system") return nccl_load_document(doc, path);
  throw InputError(path + ": the root element is <" + root +
                   ">, neither an hwloc <topology> export nor an NCCL <system> topology");
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

Device* device_at(NodeTopology& t, const std::string& bus_id) {
  for (auto& d : t.devices)
    if (d.bus_id == bus_id) return &d;
  return nullptr;
}

}  // namespace

NodeTopology load_topology_file(const std::string& path) {
  try {
    return load_topology_text(read_input(path), path);
  } catch (const InputError& e) {
    throw InputError(printable(e.what()));  // messages quote the file's names and values: keep them one line
  }
}

void enrich_from_system(NodeTopology& t, const SystemRoots& roots) {
  int unread = 0;
  for (auto& d : t.devices)
    if (!read_pcie_link(roots.sys, d.bus_id, d.link)) ++unread;
  if (unread > 0)
    t.notes.push_back(std::to_string(unread) + " device(s) not found in " + roots.sys + "/bus/pci: no PCIe link state for them");

  t.interfaces = read_net_interfaces(roots.sys, roots.proc);
  if (roots.live_queries) add_live_details(t.interfaces);
  t.rdma = read_rdma_devices(roots.sys, t.interfaces);
  if (roots.live_queries) add_verbs_details(t.rdma);
  t.default_route_interfaces = read_default_route_interfaces(roots.proc);

  for (const auto& i : t.interfaces)
    if (Device* d = i.bus_id.empty() ? nullptr : device_at(t, i.bus_id)) add_unique(d->netdevs, i.name);
  for (const auto& r : t.rdma)
    if (Device* d = r.bus_id.empty() ? nullptr : device_at(t, r.bus_id)) add_unique(d->rdma_devs, r.name);
}

NodeTopology discover_local(const std::string& sysfs_root) {
  return discover_local(SystemRoots{sysfs_root, "/proc", sysfs_root == "/sys"});
}

NodeTopology discover_local(const SystemRoots& roots) {
  NodeTopology t = hwloc_discover_live();
  enrich_from_system(t, roots);
  if (roots.live_queries)
    for (const auto& [ordinal, bus_id] : cuda_bus_ids_by_ordinal())
      if (Device* d = device_at(t, bus_id)) d->cuda_ordinal = ordinal;
  return t;
}

}  // namespace gpunet::topo
