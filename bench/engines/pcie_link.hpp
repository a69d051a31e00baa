// The PCIe link of a GPU as Linux shows it (report/CEILINGS.md §3.3): negotiated and maximum speed and
// width of the device and of the port above it, the Max Payload Size from config space, and the
// NUMA node. Read from a sysfs root (a fake tree in tests). The report's analysis turns these into
// the raw and TLP-adjusted ceilings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/json.hpp"

namespace gpunet::bench::gpu {

struct PcieLinkInfo {
  std::string bus_id;            // dddd:bb:dd.f
  int gen = 0, width = 0;        // negotiated now (idle GPUs train down: read it under load)
  int max_gen = 0, max_width = 0;  // min(device max, upstream port max) where both are known
  std::string speed, max_speed;  // sysfs text, e.g. "16.0 GT/s PCIe"
  int mps = 0;                   // Max Payload Size in bytes; 0 = config space not readable
  int numa_node = -1;            // -1 = unknown or not NUMA
};

// "16.0 GT/s PCIe" or "16 GT/s" -> 4; nullopt for anything else ("Unknown", legacy PCI).
std::optional<int> pcie_gen_from_speed(const std::string& text);

// Max Payload Size (bytes) from PCI config space bytes: walks the capability list to the PCI
// Express capability and decodes Device Control bits 7:5. 0 when absent or truncated.
int mps_from_config(const std::vector<uint8_t>& config);

// "0000:3B:00.0" (CUDA's form) -> "0000:3b:00.0".
std::string normalize_bus_id(const std::string& bus_id);

// Reads SYSFS/bus/pci/devices/BUS_ID/{current,max}_link_{speed,width}, the same of the parent
// port (the device's path's parent directory), config, and numa_node. Missing files leave zeros.
PcieLinkInfo read_pcie_link(const std::string& sys_root, const std::string& bus_id);

// {gen, width, max_gen, max_width, speed, max_speed, mps, gpu_numa} for Record::extra.pcie
// (zeros and empty strings left out).
gpunet::json to_json(const PcieLinkInfo& l);

}  // namespace gpunet::bench::gpu
