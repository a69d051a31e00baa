#include "topology/model.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace gpunet::topo {

namespace {

// Minimum of two values where 0 means unknown.
int min_known(int a, int b) {
  if (a == 0) return b;
  if (b == 0) return a;
  return std::min(a, b);
}

}  // namespace

LinkState PcieLink::usable() const {
  return {min_known(max.gen, upstream_max.gen), min_known(max.width, upstream_max.width)};
}

std::vector<const Device*> NodeTopology::gpus() const {
  std::vector<const Device*> out;
  for (const auto& d : devices)
    if (d.kind == DeviceKind::gpu) out.push_back(&d);
  return out;
}

std::vector<const Device*> NodeTopology::nics() const {
  std::vector<const Device*> out;
  for (const auto& d : devices)
    if (d.kind == DeviceKind::nic) out.push_back(&d);
  return out;
}

const Device* NodeTopology::find_device(const std::string& bus_id) const {
  for (const auto& d : devices)
    if (d.bus_id == bus_id) return &d;
  return nullptr;
}

const NetInterface* NodeTopology::find_interface(const std::string& name) const {
  for (const auto& i : interfaces)
    if (i.name == name) return &i;
  return nullptr;
}

const RdmaDevice* NodeTopology::find_rdma(const std::string& name) const {
  for (const auto& r : rdma)
    if (r.name == name) return &r;
  return nullptr;
}

std::string to_string(DeviceKind k) { return k == DeviceKind::gpu ? "GPU" : "NIC"; }

std::string to_string(SourceFormat f) {
  switch (f) {
    case SourceFormat::live: return "live";
    case SourceFormat::hwloc_xml: return "hwloc-xml";
    case SourceFormat::nccl_xml: return "nccl-xml";
  }
  return "live";
}

std::string to_string(IfKind k) {
  switch (k) {
    case IfKind::physical: return "physical";
    case IfKind::bond: return "bond";
    case IfKind::vlan: return "vlan";
    case IfKind::bridge: return "bridge";
    case IfKind::virtual_other: return "virtual";
  }
  return "virtual";
}

std::string format_bus_id(unsigned domain, unsigned bus, unsigned dev, unsigned fn) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", domain & 0xffffu, bus & 0xffu, dev & 0x1fu, fn & 0x7u);
  return buf;
}

std::optional<std::string> parse_bus_id(const std::string& text) {
  unsigned domain = 0, bus = 0, dev = 0, fn = 0;
  int used = 0;
  const char* s = text.c_str();
  if (std::sscanf(s, "%x:%x:%x.%x%n", &domain, &bus, &dev, &fn, &used) == 4 &&
      static_cast<size_t>(used) == text.size()) {
  } else if (std::sscanf(s, "%x:%x.%x%n", &bus, &dev, &fn, &used) == 3 && static_cast<size_t>(used) == text.size()) {
    domain = 0;
  } else {
    return std::nullopt;
  }
  if (domain > 0xffff || bus > 0xff || dev > 0x1f || fn > 7) return std::nullopt;
  return format_bus_id(domain, bus, dev, fn);
}

std::string cpu_list(std::vector<int> indexes) {
  std::sort(indexes.begin(), indexes.end());
  indexes.erase(std::unique(indexes.begin(), indexes.end()), indexes.end());
  std::string out;
  for (size_t i = 0; i < indexes.size();) {
    size_t j = i;
    while (j + 1 < indexes.size() && indexes[j + 1] == indexes[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(indexes[i]);
    if (j > i) out += '-' + std::to_string(indexes[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace gpunet::topo
