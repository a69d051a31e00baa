#include "topology/classify.hpp"

#include <algorithm>
#include <cctype>

namespace gpunet::topo {

namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

bool is_gpu(const PciFunctionFacts& f) {
  if (f.vendor_id == kVendorNvidia) return f.class_id == 0x0300 || f.class_id == 0x0302;
  if (f.vendor_id == kVendorAmd) {
    if (f.class_id == 0x0302 || f.class_id == 0x0380 || f.class_id == 0x1200) return true;
    if (f.class_id == 0x0300)
      return std::any_of(f.gpu_osdevs.begin(), f.gpu_osdevs.end(),
                         [](const std::string& n) { return starts_with(n, "rsmi"); });
  }
  return false;
}

bool is_nic(const PciFunctionFacts& f) {
  return (f.class_id >> 8) == 0x02 || f.class_id == 0x0c06 || f.has_netdev || f.has_rdma;
}

}  // namespace

std::optional<DeviceKind> classify_pci_function(const PciFunctionFacts& f) {
  if (is_gpu(f)) return DeviceKind::gpu;
  if (is_nic(f)) return DeviceKind::nic;
  return std::nullopt;
}

int cuda_ordinal_from_osdev(const std::string& name) {
  if (!starts_with(name, "cuda") || name.size() == 4) return -1;
  if (!std::all_of(name.begin() + 4, name.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) return -1;
  if (name.size() > 8) return -1;
  return std::stoi(name.substr(4));
}

}  // namespace gpunet::topo
