// The topology section of report.md and report.html: every kind of node (the hosts that share it
// named in its heading) with its CPU/NUMA summary, GPU/NIC path matrix, PCIe link table, network
// interfaces with their role in the run, and the topology findings. Thin layouts of the neutral text
// of report/document/topology_tables.hpp. Pure.
#pragma once

#include <string>

#include "report/model/record.hpp"
#include "report/document/topology_tables.hpp"

namespace gpunet::report {

std::string topology_markdown(const TopoSectionText& text);
std::string topology_markdown(const Report& rep);  // "\n## Topology\n..."
// <section id="topology">: always present, so that a reader (and a browser test) finds it; it says
// why when there is no topology.
std::string topology_html(const TopoSectionText& text);
std::string topology_html(const Report& rep);

}  // namespace gpunet::report
