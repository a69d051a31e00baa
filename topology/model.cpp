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
  // [domain:]bus:device.function, each part hex digits only.
  std::vector<unsigned long> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i]))) continue;
    const bool separator_ok = i == text.size() ? !parts.empty() : (text[i] == ':' || text[i] == '.');
    if (i == start || i - start > 8 || !separator_ok) return std::nullopt;
    parts.push_back(std::stoul(text.substr(start, i - start), nullptr, 16));
    start = i + 1;
  }
  if (parts.size() == 3) parts.insert(parts.begin(), 0);
  if (parts.size() != 4 || text.find('.') == std::string::npos || text.find('.') < text.rfind(':')) return std::nullopt;
  if (parts[0] > 0xffff || parts[1] > 0xff || parts[2] > 0x1f || parts[3] > 7) return std::nullopt;
  return format_bus_id(static_cast<unsigned>(parts[0]), static_cast<unsigned>(parts[1]), static_cast<unsigned>(parts[2]),
                       static_cast<unsigned>(parts[3]));
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
