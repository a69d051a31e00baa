// The `topo` suite: one leader rank per node discovers and analyses its topology (a record per node
// carries its findings), rank 0 compares the nodes (a record carries those findings) and fills
// sections.topology and sections.topology_findings. Also the --topology-xml mode, without MPI.
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench {

Suite topo_suite();

void run_topo_suite(const SuiteContext& ctx);
// Console text for the topo suite's sections: each distinct path matrix once, then the findings.
std::string render_topology_console(const ReportSections& sections);

// --topology-xml FILE: analyse the file, print matrix and findings. 0, or 2 for a bad file. No MPI.
int run_topology_file(const Config& cfg);

}  // namespace gpunet::bench
