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

// Matrix, legend, NIC legend, then the PCIe link table and the NIC table.
std::string render_matrix(const NodeTopology& t);

// One line per finding, most severe first: "  [warning] sentence".
std::string render_findings(const std::vector<Finding>& findings);

}  // namespace gpunet::topo
