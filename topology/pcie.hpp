// PCIe link arithmetic: generation from the kernel's speed strings, and the per-direction data rate
// of a link after line coding (report/CEILINGS.md §3.1). Pure functions.
//
// The report/ ceilings module was not on main when this was written, so this small function lives
// here; report/ can call it or replace it with its own table.
#pragma once

#include <optional>
#include <string>

#include "topology/model.hpp"

namespace gpunet::topo {

// PCIe generation (1..6) from a link speed string as sysfs or NCCL write it: "8.0 GT/s PCIe",
// "8 GT/s", "16 GT/s", "2.5 GT/s PCIe". "Unknown", legacy PCI/PCI-X strings and garbage give nullopt.
std::optional<int> pcie_gen_from_speed(const std::string& text);

// Transfer rate of one lane in GT/s for a generation (2.5, 5, 8, 16, 32, 64); 0 for unknown.
double pcie_GTps(int gen);

// Data rate of a link in GB/s (1e9 B/s) per direction after 8b/10b, 128b/130b or the Gen6 FLIT
// (242/256) coding, before TLP overhead. 0 when gen or width is unknown.
double pcie_GBps(int gen, int width);
inline double pcie_GBps(const LinkState& s) { return pcie_GBps(s.gen, s.width); }

// "Gen3 x16", "Gen4 x?" or "unknown".
std::string describe(const LinkState& s);

}  // namespace gpunet::topo
