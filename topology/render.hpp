// Text renderers: the GPU/NIC path matrix in the layout of nvidia-smi topo -m (with a legend), the
// PCIe link and NIC tables, and the findings. Pure functions of the model.
#pragma once

#include <string>
#include <vector>

#include "topology/findings.hpp"
#include "topology/model.hpp"

namespace gpunet::topo {

inline constexpr const char* kIdleLinkNote =
    "Idle GPUs lower their PCIe link speed; a current speed below the usable one on an idle GPU is expected.";

// The GPU/NIC path matrix as data: labels GPU0.., NIC0.. (GPUs, then NICs, in device order), the
// cell of every ordered pair ("X", "PIX", ..., "SYS", "SYS*" for SYS inside one package), and per
// row the local CPUs and NUMA nodes ("N/A" when unknown). The text matrix and the JSON both use it.
struct PathMatrix {
  std::vector<std::string> labels;
  std::vector<const Device*> devices;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> cpu_affinity, numa_affinity;
  bool sub_numa = false;  // some cell is SYS*
};
PathMatrix path_matrix(const NodeTopology& t);

// Matrix, legend, NIC legend, then the PCIe link table and the NIC table.
std::string render_matrix(const NodeTopology& t);

// One line per GPU: its NIC (pairing.hpp), the path class and the NUMA nodes; "" without GPUs.
std::string render_pairing(const NodeTopology& t);

// One line per finding, most severe first: "  [warning] sentence".
std::string render_findings(const std::vector<Finding>& findings);

}  // namespace gpunet::topo
