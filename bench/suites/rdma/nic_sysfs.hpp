// What sysfs says about the PCI function behind an RDMA device: its bus id, NUMA node and PCIe link,
// and the speed of a RoCE port's network interface. Reads SYS/class/infiniband/<dev>/device (a link
// to the PCI device) and SYS/class/net/<if>/speed; tests point SYS at trees they build.
//
// STAND-IN for the topology model (branch topo): once gpunet::topo is on main, the NIC's NUMA node,
// PCIe link and nearest GPU come from there.
#pragma once

#include <optional>
#include <string>

namespace gpunet::bench::rdma {

struct NicPci {
  std::string bus_id;           // dddd:bb:dd.f; "" when the device is not a PCI function
  int numa_node = -1;           // -1 = unknown or a single-node machine
  int gen = 0, width = 0;       // negotiated link (current_link_*); 0 = unknown
  int max_gen = 0, max_width = 0;
};

NicPci read_nic_pci(const std::string& sys_root, const std::string& rdma_dev);

// "16.0 GT/s PCIe" (or the older "16 GT/s") -> 4; nullopt for anything else.
std::optional<int> pcie_gen_from_text(const std::string& text);

// Speed of a network interface in Mb/s; nullopt when unknown (-1, 0 or unreadable).
std::optional<long> netdev_speed_Mbps(const std::string& sys_root, const std::string& ifname);

}  // namespace gpunet::bench::rdma
