// PCIe link state from sysfs: SYSFS/bus/pci/devices/<bus id>/{current,max}_link_{speed,width} of the
// device and of the port directly above it (the parent directory in /sys/devices). Works without
// root. Takes the sysfs root so tests can point it at a tree they built.
#pragma once

#include <string>

#include "topology/model.hpp"

namespace gpunet::topo {

// Fills link.current/max/upstream_* (and upstream_bus_id) of the device `bus_id` where sysfs has
// them; fields it cannot read stay as they were. Returns false when the device is not in sysfs.
bool read_pcie_link(const std::string& sys_root, const std::string& bus_id, PcieLink& link);

}  // namespace gpunet::topo
