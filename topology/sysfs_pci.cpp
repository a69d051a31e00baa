#include "topology/sysfs_pci.hpp"

#include <filesystem>

#include "topology/pcie.hpp"
#include "topology/sysfs_util.hpp"

namespace gpunet::topo {

namespace fs = std::filesystem;

namespace {

// Reads one pair of speed/width files ("current" or "max"); unknown fields stay 0.
LinkState read_state(const fs::path& dir, const std::string& which) {
  LinkState s;
  if (const auto speed = fsutil::read_line(dir / (which + "_link_speed")))
    s.gen = pcie_gen_from_speed(*speed).value_or(0);
  if (const auto width = fsutil::read_int(dir / (which + "_link_width")); width && *width > 0 && *width <= 32)
    s.width = static_cast<int>(*width);
  return s;
}

void merge(LinkState& into, const LinkState& read) {
  if (read.gen) into.gen = read.gen;
  if (read.width) into.width = read.width;
}

}  // namespace

bool read_pcie_link(const std::string& sys_root, const std::string& bus_id, PcieLink& link) {
  const fs::path dev = fs::path(sys_root) / "bus/pci/devices" / bus_id;
  std::error_code ec;
  const fs::path real = fs::canonical(dev, ec);
  if (ec) return false;
  merge(link.current, read_state(real, "current"));
  merge(link.max, read_state(real, "max"));
  const fs::path parent = real.parent_path();
  if (const auto up = parse_bus_id(parent.filename().string())) {
    link.upstream_bus_id = *up;
    merge(link.upstream_current, read_state(parent, "current"));
    merge(link.upstream_max, read_state(parent, "max"));
  }
  return true;
}

}  // namespace gpunet::topo
