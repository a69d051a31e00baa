#include "topology/hwloc_loader.hpp"

#include <hwloc.h>
#include <pugixml.hpp>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "topology/classify.hpp"
#include "topology/hwloc_xml_check.hpp"
#include "topology/xml_bounded.hpp"

namespace gpunet::topo {

namespace {

struct TopologyDeleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using TopologyPtr = std::unique_ptr<hwloc_topology, TopologyDeleter>;

// A topology context that keeps every I/O object.
TopologyPtr make_topology() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) throw std::runtime_error("hwloc_topology_init failed");
  TopologyPtr t(raw);
  hwloc_topology_set_io_types_filter(t.get(), HWLOC_TYPE_FILTER_KEEP_ALL);
  return t;
}

std::string bitmap_list(hwloc_const_bitmap_t set) {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, set) < 0 || text == nullptr) return "";
  std::string out(text);
  std::free(text);
  return out;
}

std::vector<int> bitmap_indexes(hwloc_const_bitmap_t set) {
  std::vector<int> out;
  if (set == nullptr) return out;
  for (int i = hwloc_bitmap_first(set); i >= 0; i = hwloc_bitmap_next(set, i)) out.push_back(i);
  return out;
}

std::string info(hwloc_obj_t obj, const char* name) {
  const char* v = hwloc_obj_get_info_by_name(obj, name);
  return v ? v : "";
}

std::string pci_bus_id(const hwloc_obj_attr_u::hwloc_pcidev_attr_s& a) { return format_bus_id(a.domain, a.bus, a.dev, a.func); }

// The logical index of the package holding `obj`: an ancestor package, or else the only package
// whose CPUs intersect obj's CPUs. -1 when there is none or several.
int package_of(hwloc_topology_t t, hwloc_obj_t obj) {
  for (hwloc_obj_t p = obj; p; p = p->parent)
    if (p->type == HWLOC_OBJ_PACKAGE) return static_cast<int>(p->logical_index);
  if (obj->cpuset == nullptr) return -1;
  int found = -1;
  for (hwloc_obj_t p = nullptr; (p = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PACKAGE, p));) {
    if (!hwloc_bitmap_intersects(p->cpuset, obj->cpuset)) continue;
    if (found >= 0) return -1;
    found = static_cast<int>(p->logical_index);
  }
  return found;
}

CpuInfo read_cpus(hwloc_topology_t t) {
  CpuInfo c;
  c.packages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
  c.cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
  c.pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
  for (hwloc_obj_t n = nullptr; (n = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, n));)
    c.numa_nodes.push_back({static_cast<int>(n->os_index), package_of(t, n->parent), bitmap_list(n->cpuset)});
  return c;
}

Ancestor ancestor_of(hwloc_obj_t bridge) {
  Ancestor a;
  a.id = "gp" + std::to_string(bridge->gp_index);
  const auto& b = bridge->attr->bridge;
  if (b.upstream_type == HWLOC_OBJ_BRIDGE_HOST) {
    a.kind = Ancestor::Kind::host_bridge;
    char range[64];
    std::snprintf(range, sizeof range, "host bridge %04x:[%02x-%02x]", b.downstream.pci.domain,
                  b.downstream.pci.secondary_bus, b.downstream.pci.subordinate_bus);
    a.label = range;
  } else {
    a.kind = Ancestor::Kind::pci_bridge;
    a.bus_id = pci_bus_id(b.upstream.pci);
    char ids[16];
    std::snprintf(ids, sizeof ids, "%04x:%04x", b.upstream.pci.vendor_id, b.upstream.pci.device_id);
    a.label = a.bus_id + " " + ids;
  }
  return a;
}

// An OS device's type as a plain integer. hwloc copies it from the XML's osdev_type attribute
// unchecked, so an imported file can hold a value no enumerator has (the fuzz test's mutants gave
// -1): reading the enum member itself would be undefined behaviour, its bytes are not.
int osdev_type(const hwloc_obj& os) {
  std::underlying_type_t<hwloc_obj_osdev_type_e> raw{};
  static_assert(sizeof raw == sizeof os.attr->osdev.type);
  std::memcpy(&raw, &os.attr->osdev.type, sizeof raw);
  return static_cast<int>(raw);
}

// Fills everything that hwloc knows about one PCI function; nullopt when it is neither GPU nor NIC.
std::optional<Device> read_device(hwloc_topology_t t, hwloc_obj_t pci) {
  const auto& attr = pci->attr->pcidev;
  Device d;
  d.bus_id = pci_bus_id(attr);
  d.vendor_id = attr.vendor_id;
  d.device_id = attr.device_id;
  d.class_id = attr.class_id;
  d.name = info(pci, "PCIDevice");
  if (d.name.empty() && pci->name) d.name = pci->name;

  for (hwloc_obj_t os = pci->io_first_child; os; os = os->next_sibling) {
    if (os->type != HWLOC_OBJ_OS_DEVICE || os->name == nullptr) continue;
    switch (osdev_type(*os)) {
      case HWLOC_OBJ_OSDEV_NETWORK: d.netdevs.emplace_back(os->name); break;
      case HWLOC_OBJ_OSDEV_OPENFABRICS: d.rdma_devs.emplace_back(os->name); break;
      case HWLOC_OBJ_OSDEV_GPU:
      case HWLOC_OBJ_OSDEV_COPROC: d.gpu_devs.emplace_back(os->name); break;
      default: break;
    }
  }
  const auto kind = classify_pci_function({d.vendor_id, d.class_id, d.gpu_devs, !d.netdevs.empty(), !d.rdma_devs.empty()});
  if (!kind) return std::nullopt;
  d.kind = *kind;
  for (const auto& os : d.gpu_devs)
    if (const int ord = cuda_ordinal_from_osdev(os); ord >= 0) d.cuda_ordinal = ord;

  hwloc_obj_t up = pci->parent;
  for (; up && hwloc_obj_type_is_io(up->type); up = up->parent)
    if (up->type == HWLOC_OBJ_BRIDGE) d.ancestors.push_back(ancestor_of(up));
  if (up) {
    d.numa_nodes = bitmap_indexes(up->nodeset);
    d.package = package_of(t, up);
    if (up->cpuset) d.cpus = bitmap_list(up->cpuset);
  }
  if (attr.linkspeed > 0) d.link.hwloc_GBps = attr.linkspeed;
  if (!d.ancestors.empty() && d.ancestors.front().kind == Ancestor::Kind::pci_bridge)
    d.link.upstream_bus_id = d.ancestors.front().bus_id;
  return d;
}

NodeTopology convert(hwloc_topology_t t) {
  NodeTopology node;
  node.cpu = read_cpus(t);
  for (hwloc_obj_t pci = nullptr; (pci = hwloc_get_next_pcidev(t, pci));)
    if (auto d = read_device(t, pci)) node.devices.push_back(std::move(*d));
  std::stable_sort(node.devices.begin(), node.devices.end(), [](const Device& a, const Device& b) {
    if (a.kind != b.kind) return a.kind == DeviceKind::gpu;
    return a.bus_id < b.bus_id;
  });
  node.hostname = info(hwloc_get_root_obj(t), "HostName");
  return node;
}

// What hwloc saw, as its own XML export (v2); empty when hwloc cannot export it.
std::string export_xml(hwloc_topology_t t) {
  char* buf = nullptr;
  int len = 0;
  if (hwloc_topology_export_xmlbuffer(t, &buf, &len, 0) != 0 || buf == nullptr) return "";
  std::string xml(buf, len > 0 ? static_cast<size_t>(len) - 1 : 0);  // len counts the final NUL
  hwloc_free_xmlbuffer(t, buf);
  return xml;
}

}  // namespace

NodeTopology hwloc_discover_live() {
  auto t = make_topology();
  if (hwloc_topology_load(t.get()) != 0) throw std::runtime_error("hwloc could not discover this machine");
  NodeTopology node = convert(t.get());
  node.hwloc_xml = export_xml(t.get());
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) node.hostname = host;
  node.source = "live";
  node.format = SourceFormat::live;
  return node;
}

NodeTopology hwloc_load_xml(const std::string& xml, const std::string& path) {
  pugi::xml_document doc;
  parse_xml_bounded(doc, xml, path);
  return hwloc_load_document(doc, path);
}

// Untrusted files are made safe for hwloc's importer by checking them first (hwloc_xml_check.hpp) and
// handing hwloc only what pugixml writes back from the checked tree.
NodeTopology hwloc_load_document(const pugi::xml_document& doc, const std::string& path) {
  std::vector<std::string> unread = check_hwloc_document(doc, path);
  std::ostringstream canonical;
  doc.save(canonical, "", pugi::format_raw, pugi::encoding_utf8);
  const std::string xml = canonical.str();
  auto t = make_topology();
  if (hwloc_topology_set_xmlbuffer(t.get(), xml.c_str(), static_cast<int>(xml.size() + 1)) != 0 ||
      hwloc_topology_load(t.get()) != 0)
    throw InputError(path + ": hwloc cannot read this XML topology (is it an lstopo XML export?)");
  NodeTopology node = convert(t.get());
  node.source = path;
  node.format = SourceFormat::hwloc_xml;
  if (node.hostname.empty()) {
    const auto slash = path.find_last_of('/');
    node.hostname = slash == std::string::npos ? path : path.substr(slash + 1);
  }
  node.unread = std::move(unread);
  node.notes.push_back("from an hwloc XML export: PCIe max link state, NIC speeds and RDMA ports are not in the file");
  return node;
}

std::string hwloc_version() { return HWLOC_VERSION; }

}  // namespace gpunet::topo
