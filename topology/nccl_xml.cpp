#include "topology/nccl_xml.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <sstream>

#include "common/quote.hpp"
#include "topology/paths.hpp"
#include "topology/pcie.hpp"
#include "topology/xml_bounded.hpp"

namespace gpunet::topo {

namespace {

unsigned long hex_attr(const pugi::xml_node& n, const char* name) {
  const char* text = n.attribute(name).value();
  try {
    return *text ? std::stoul(text, nullptr, 16) : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

// "00000000,0000ffff,ff000000": 32-bit words, most significant first -> "24-47".
std::string affinity_to_cpus(const std::string& mask) {
  std::vector<std::string> words;
  std::stringstream ss(mask);
  for (std::string w; std::getline(ss, w, ',');) words.push_back(w);
  constexpr size_t kMaxWords = 1024;  // 32,768 CPUs
  if (words.size() > kMaxWords) return "";
  std::vector<int> cpus;
  for (size_t i = 0; i < words.size(); ++i) {
    unsigned long bits = 0;
    try {
      bits = std::stoul(words[i], nullptr, 16);
    } catch (const std::exception&) {
      return "";
    }
    const int base = static_cast<int>(32 * (words.size() - 1 - i));
    for (int b = 0; b < 32; ++b)
      if (bits & (1UL << b)) cpus.push_back(base + b);
  }
  return cpu_list(cpus);
}

// Walks the <pci> tree under one <cpu>. `chain` holds the ancestors of the element being read,
// outermost first, pushed and popped on the way (no copy per level); parse_xml_bounded has bounded
// the depth, so the recursion is bounded too.
struct Walker {
  const std::string& path;
  NodeTopology& node;
  int numa = -1;
  std::string cpus;
  std::vector<Ancestor> chain;

  std::string bus_id_of(const pugi::xml_node& pci) const {
    const std::string text = pci.attribute("busid").value();
    auto id = parse_bus_id(text);
    if (!id) throw InputError(path + ": <pci busid=\"" + clipped(text, 80) + "\"> is not a PCI bus id (dddd:bb:dd.f)");
    return *id;
  }

  void leaf(const pugi::xml_node& pci) {
    Device d;
    d.bus_id = bus_id_of(pci);
    const unsigned long cls = hex_attr(pci, "class");
    d.class_id = static_cast<uint16_t>(cls > 0xffff ? cls >> 8 : cls);
    d.vendor_id = static_cast<uint16_t>(hex_attr(pci, "vendor"));
    d.device_id = static_cast<uint16_t>(hex_attr(pci, "device"));
    const auto gpu = pci.child("gpu");
    const auto nic = pci.child("nic");
    if (gpu || (d.class_id >> 8) == 0x03) {
      d.kind = DeviceKind::gpu;
      if (gpu && gpu.attribute("dev")) d.cuda_ordinal = gpu.attribute("dev").as_int(-1);
    } else if (nic || (d.class_id >> 8) == 0x02 || d.class_id == 0x0c06) {
      d.kind = DeviceKind::nic;
      for (const auto& net : nic.children("net")) add_net(d, net);
    } else {
      return;
    }
    d.numa_nodes = {numa};
    d.cpus = cpus;
    d.ancestors.assign(chain.rbegin(), chain.rend());  // nearest first
    const auto gen = pcie_gen_from_speed(pci.attribute("link_speed").value());
    d.link.max = {gen.value_or(0), pci.attribute("link_width").as_int(0)};
    if (!chain.empty() && chain.back().kind == Ancestor::Kind::pci_bridge) d.link.upstream_bus_id = chain.back().bus_id;
    node.devices.push_back(std::move(d));
  }

  void add_net(Device& d, const pugi::xml_node& net) {
    const std::string name = net.attribute("name").value();
    if (name.empty()) return;
    d.rdma_devs.push_back(name);
    RdmaDevice r;
    r.name = name;
    r.bus_id = d.bus_id;
    RdmaPort p;
    p.port = net.attribute("port").as_int(1);
    p.data_rate_Gbps = p.rate_Gbps = net.attribute("speed").as_double(0) / 1000.0;  // Mb/s in the file
    r.ports.push_back(p);
    node.rdma.push_back(std::move(r));
  }

  void walk(const pugi::xml_node& parent) {
    for (const auto& pci : parent.children("pci")) {
      if (!pci.child("pci")) {
        leaf(pci);
        continue;
      }
      Ancestor sw;
      sw.kind = Ancestor::Kind::pci_bridge;
      sw.bus_id = bus_id_of(pci);
      sw.id = "pci " + sw.bus_id;
      sw.label = sw.bus_id + " (switch)";
      chain.push_back(std::move(sw));
      walk(pci);
      chain.pop_back();
    }
  }
};

std::string join_first(const std::vector<std::string>& items, size_t shown) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < shown; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > shown) out += " and " + std::to_string(items.size() - shown) + " more";
  return out;
}

std::string numa_text(const Device& d) { return d.numa() >= 0 ? std::to_string(d.numa()) : "unknown"; }

bool classes_agree(PathClass hwloc_cls, PathClass nccl_cls) {
  if (hwloc_cls == nccl_cls) return true;
  return nccl_cls == PathClass::PHB && hwloc_cls == PathClass::NODE;  // NCCL does not separate NODE
}

}  // namespace

NodeTopology nccl_load_xml(const std::string& xml, const std::string& path) {
  pugi::xml_document doc;
  parse_xml_bounded(doc, xml, path);
  return nccl_load_document(doc, path);
}

NodeTopology nccl_load_document(const pugi::xml_document& doc, const std::string& path) {
  const auto root = doc.document_element();
  if (std::string(root.name()) != "system")
    throw InputError(path + ": the root element is <" + root.name() + ">, not an NCCL <system> topology");

  NodeTopology node;
  node.source = path;
  node.format = SourceFormat::nccl_xml;
  const auto slash = path.find_last_of('/');
  node.hostname = slash == std::string::npos ? path : path.substr(slash + 1);
  for (const auto& cpu : root.children("cpu")) {
    Walker w{path, node, cpu.attribute("numaid").as_int(-1), affinity_to_cpus(cpu.attribute("affinity").value()), {}};
    node.cpu.numa_nodes.push_back({w.numa, -1, w.cpus});
    Ancestor host;
    host.kind = Ancestor::Kind::host_bridge;
    host.id = "cpu " + std::to_string(w.numa);
    host.label = "cpu numaid " + std::to_string(w.numa);
    w.chain.push_back(std::move(host));
    w.walk(cpu);
    // A <nic> straight under <cpu>: a network NCCL uses but could not find on the PCI tree (a
    // virtual NIC, a socket interface): kept by its interface name, with no bus id.
    for (const auto& nic : cpu.children("nic"))
      for (const auto& net : nic.children("net")) {
        NetInterface i;
        i.name = net.attribute("name").value();
        if (const double mbps = net.attribute("speed").as_double(0); mbps > 0) i.speed_Mbps = static_cast<int64_t>(mbps);
        if (!i.name.empty()) node.interfaces.push_back(std::move(i));
      }
  }
  std::stable_sort(node.devices.begin(), node.devices.end(), [](const Device& a, const Device& b) {
    if (a.kind != b.kind) return a.kind == DeviceKind::gpu;
    return a.bus_id < b.bus_id;
  });
  node.notes.push_back("from an NCCL topology file: packages, cores and current link state are not in the file");
  return node;
}

std::vector<Finding> compare_views(const NodeTopology& hw, const NodeTopology& nccl) {
  std::vector<Finding> out;
  auto add = [&](std::string message, std::vector<std::string> subjects) {
    out.push_back({Severity::warning, "nccl_disagrees", std::move(message), std::move(subjects), hw.hostname});
  };
  std::vector<std::string> only_nccl, only_hwloc, unplaced, unplaced_ids;
  for (const auto& d : nccl.devices)
    if (!hw.find_device(d.bus_id)) only_nccl.push_back(to_string(d.kind) + " " + d.bus_id);
  for (const auto& d : hw.devices) {
    if (nccl.find_device(d.bus_id)) continue;
    const auto named = std::find_if(d.netdevs.begin(), d.netdevs.end(),
                                    [&](const std::string& n) { return nccl.find_interface(n) != nullptr; });
    if (named != d.netdevs.end()) {
      unplaced.push_back(*named + " (NIC " + d.bus_id + ")");
      unplaced_ids.push_back(d.bus_id);
    } else {
      only_hwloc.push_back(to_string(d.kind) + " " + d.bus_id);
    }
  }
  if (!only_nccl.empty())
    add("NCCL's topology file lists " + std::to_string(only_nccl.size()) + " device(s) that hwloc does not see here: " +
            join_first(only_nccl, 4) + ".",
        only_nccl);
  if (!only_hwloc.empty())
    add("hwloc sees " + std::to_string(only_hwloc.size()) + " device(s) that NCCL's topology file does not list, so NCCL " +
            "will not place them correctly: " + join_first(only_hwloc, 4) + ".",
        only_hwloc);
  if (!unplaced.empty())
    add("NCCL's topology file lists " + join_first(unplaced, 4) + " under the CPU without its PCI location, so NCCL " +
            "treats it as equally far from every GPU and does not use the GPU-NIC locality hwloc shows.",
        unplaced_ids);

  for (const auto& n : nccl.devices) {
    const Device* h = hw.find_device(n.bus_id);
    if (!h) continue;
    const std::string name = to_string(h->kind) + " " + h->bus_id;
    if (h->kind != n.kind)
      add(name + " is a " + to_string(n.kind) + " in NCCL's topology file.", {h->bus_id});
    if (n.numa() >= 0 && h->numa() >= 0 && n.numa() != h->numa())
      add(name + " is on NUMA node " + numa_text(n) + " in NCCL's topology file but on NUMA node " + numa_text(*h) +
              " according to hwloc.",
          {h->bus_id});
    const LinkState nl = n.link.usable(), hl = h->link.usable();
    if (nl.known() && hl.known() && nl != hl)
      add(name + " has a " + describe(nl) + " link in NCCL's topology file but " + describe(hl) + " in sysfs.",
          {h->bus_id});
  }

  std::vector<std::string> differing;
  for (const auto& p : gpu_pairs(nccl)) {
    const Device* ha = hw.find_device(p.a);
    const Device* hb = hw.find_device(p.b);
    if (!ha || !hb) continue;
    const auto hc = classify_path(*ha, *hb, hw.format).cls;
    if (!classes_agree(hc, p.path.cls))
      differing.push_back(p.a + "/" + p.b + " " + to_string(p.path.cls) + " in NCCL's file, " + to_string(hc) +
                          " by hwloc");
  }
  if (!differing.empty())
    add("NCCL's topology file and hwloc disagree on the path between " + std::to_string(differing.size()) +
            " device pair(s): " + join_first(differing, 3) + ".",
        differing);
  return out;
}

}  // namespace gpunet::topo
