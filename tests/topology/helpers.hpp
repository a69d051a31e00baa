// Test helpers: where the topology fixtures live, and a fake sysfs/procfs tree in a temp directory
// that the readers are pointed at.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/support/fake_tree.hpp"
#include "topology/model.hpp"

namespace gpunet::topo::test {

inline std::string data_file(const std::string& name) { return std::string(GPUNET_TOPOLOGY_DATA_DIR) + "/" + name; }

// Builds files and symlinks under a fresh temp directory (removed by the destructor). The sys()
// and proc() roots mirror /sys and /proc.
class FakeRoot : public gpunet::test::FakeTree {
 public:
  std::string sys() const { return (top() / "sys").string(); }
  std::string proc() const { return (top() / "proc").string(); }

  // A symlink below the root pointing at another path below the root (unlike FakeTree::link, whose
  // target is taken as given); an existing link is kept.
  void link(const std::string& rel_link, const std::string& rel_target) const {
    const auto p = top() / rel_link;
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(p, ec))) return;
    std::filesystem::create_directories(p.parent_path());
    std::filesystem::create_directories(top() / rel_target);
    std::filesystem::create_directory_symlink(top() / rel_target, p);
  }

  // A PCI hierarchy: chain = bus ids from the root port down to the device. Creates
  // sys/devices/pciDDDD:BB/<chain...> and sys/bus/pci/devices/<id> links; returns the device dir.
  std::string add_pci(const std::vector<std::string>& chain) const {
    std::string dir = "sys/devices/pci" + chain.front().substr(0, 7);
    for (const auto& id : chain) {
      dir += "/" + id;
      std::filesystem::create_directories(top() / dir);
      if (!std::filesystem::exists(top() / "sys/bus/pci/devices" / id)) link("sys/bus/pci/devices/" + id, dir);
    }
    return dir;
  }

  // Link files of one PCI function (speed strings as the kernel writes them; "" = no file).
  void set_link(const std::string& pci_dir, const std::string& cur_speed, const std::string& cur_width,
                const std::string& max_speed, const std::string& max_width) const {
    if (!cur_speed.empty()) write(pci_dir + "/current_link_speed", cur_speed + "\n");
    if (!cur_width.empty()) write(pci_dir + "/current_link_width", cur_width + "\n");
    if (!max_speed.empty()) write(pci_dir + "/max_link_speed", max_speed + "\n");
    if (!max_width.empty()) write(pci_dir + "/max_link_width", max_width + "\n");
  }

  // A netdev; pci_dir empty = virtual. Writes speed only when given.
  void add_netdev(const std::string& name, const std::string& pci_dir, const std::string& speed, int mtu,
                  const std::string& operstate, const std::string& driver = "", const std::string& devtype = "") const {
    const std::string dir = "sys/devices/virtual/net/" + name;
    const std::string base = pci_dir.empty() ? dir : pci_dir + "/net/" + name;
    if (!speed.empty()) write(base + "/speed", speed + "\n");
    write(base + "/mtu", std::to_string(mtu) + "\n");
    write(base + "/operstate", operstate + "\n");
    write(base + "/address", "02:00:00:00:00:01\n");
    write(base + "/type", "1\n");
    write(base + "/uevent", (devtype.empty() ? "" : "DEVTYPE=" + devtype + "\n") + "INTERFACE=" + name + "\n");
    if (!pci_dir.empty()) {
      link(base + "/device", pci_dir);
      if (!driver.empty()) link(pci_dir + "/driver", "sys/bus/pci/drivers/" + driver);
    }
    link("sys/class/net/" + name, base);
  }

 private:
  std::filesystem::path top() const { return root(); }
};

}  // namespace gpunet::topo::test
