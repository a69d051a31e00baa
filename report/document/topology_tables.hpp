// The topology section as format-neutral text: per kind of node a heading, summary lines and tables
// of plain (unescaped) cells, so that the Markdown and HTML renderers only lay them out. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/model/record.hpp"
#include "report/document/topology_model.hpp"

namespace gpunet::report {

struct TopoTable {
  std::string title;
  std::vector<std::string> header;
  std::vector<bool> numeric;  // per column: right-aligned
  std::vector<std::vector<std::string>> rows;
  std::string note;           // one line under the table; "" = none
  bool wrap_last = false;     // the last column holds sentences: wrap it
};

struct TopoKindSection {
  std::string heading;              // "fc-node0, fc-node1 (same topology)"
  std::vector<std::string> summary; // CPU/NUMA and device counts, one line each
  std::vector<TopoTable> tables;    // path matrix (GPU nodes), PCIe links, network interfaces
  std::vector<std::string> findings;  // "warning: sentence"
};

struct TopoSectionText {
  std::vector<TopoKindSection> kinds;
  std::vector<std::string> across_nodes;  // cross-node findings, "warning: sentence"
  std::string empty_reason;               // set when there is no node topology at all
};

TopoSectionText topology_text(const TopologyOverview& overview);
TopoSectionText topology_text(const Report& rep);

// "Gen4 x16", "Gen4 x?", "unknown".
std::string link_text(const std::optional<TopoLinkState>& s);

}  // namespace gpunet::report
