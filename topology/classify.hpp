// Which PCI functions are GPUs and which are NICs. Pure rules over the PCI ids and the OS devices
// that hang below the function, the same for live discovery and for every file format:
//  GPU: NVIDIA (0x10de) with class 0x0300 (VGA) or 0x0302 (3D); AMD (0x1002) with class 0x0302,
//       0x0380 or 0x1200 (accelerator), or class 0x0300 only with an rsmi OS device (so the
//       ES1000-style BMC display chips on AMD's vendor id stay out). NVSwitches (class 0x0680), BMC
//       display chips of other vendors and PCIe-switch management endpoints never match.
//  NIC: any network controller (class 0x02xx: Ethernet 0x0200, InfiniBand 0x0207, other 0x0280),
//       InfiniBand on the serial-bus class 0x0c06, or any function with a network or RDMA OS device
//       (EFA and other NICs that show only an RDMA device, NICs that show only a netdev).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topology/model.hpp"

namespace gpunet::topo {

inline constexpr uint16_t kVendorNvidia = 0x10de;
inline constexpr uint16_t kVendorAmd = 0x1002;

struct PciFunctionFacts {
  uint16_t vendor_id = 0;
  uint16_t class_id = 0;  // base << 8 | subclass
  std::vector<std::string> gpu_osdevs;  // names of GPU/co-processor OS devices (cuda0, rsmi0, card1)
  bool has_netdev = false;
  bool has_rdma = false;
};

std::optional<DeviceKind> classify_pci_function(const PciFunctionFacts& f);

// The CUDA ordinal in a "cudaN" OS device name, or -1.
int cuda_ordinal_from_osdev(const std::string& name);

}  // namespace gpunet::topo
