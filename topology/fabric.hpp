// The fabric between the nodes, read from Slurm's topology.conf (the tree plugin's syntax, which
// operators keep already): one switch per line,
//   SwitchName=leaf1 Nodes=node[01-16] [LinkSpeed=N]
//   SwitchName=spine Switches=leaf[1-4]
// '#' starts a comment; keys are case-insensitive; Nodes= and Switches= take hostlist expressions
// (topology/hostlist.hpp). A switch with Nodes= is a leaf; the switch whose Switches= names it is the
// far end of its uplink. Pure (parse_fabric) plus one file reader (load_fabric).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/json.hpp"

namespace gpunet::topo {

struct FabricSwitch {
  std::string name;
  std::vector<std::string> nodes;     // hosts hanging off this switch (a leaf)
  std::vector<std::string> switches;  // switches below this one
  std::optional<long long> link_speed;  // LinkSpeed=, as written (Slurm leaves its unit to the site)
  int line = 0;
};

struct Fabric {
  std::string path;
  std::vector<FabricSwitch> switches;  // in file order
};

// Parses topology.conf text. Throws InputError("PATH:LINE: what is wrong (what to do)") on the first
// problem: an unknown key, a line without SwitchName=, a switch named twice, a switch that connects
// nothing, Switches= naming an undefined switch, a node under two switches, a switch with two parents,
// a loop, a bad or too large hostlist.
Fabric parse_fabric(const std::string& text, const std::string& path);

// Reads FILE with the bounded reader (common/input_file.hpp: a regular file of at most 4 MiB) and
// parses it; InputError("FILE: ...") when it is missing, not a regular file, too large or empty.
Fabric load_fabric(const std::string& path);

// Each host's leaf: the index of the switch that lists it among the switches with Nodes= (in file
// order), or -1 when none does. Names are compared as written.
std::vector<int> leaf_of_hosts(const Fabric& f, const std::vector<std::string>& hosts);

// {"file": PATH, "switches": [{"name", "nodes": [...], "switches": [...], "link_speed"?}]}: what a
// report keeps (Report::extra.fabric) and report/analysis/fabric_view.hpp reads.
gpunet::json fabric_json(const Fabric& f);

}  // namespace gpunet::topo
