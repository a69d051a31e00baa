#include "topology/fabric.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>
#include <stdexcept>

#include "common/input_file.hpp"
#include "topology/hostlist.hpp"
#include "topology/model.hpp"

namespace gpunet::topo {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

struct Where {
  const std::string& path;
  int line;
  [[noreturn]] void fail(const std::string& what) const {
    // A hostile line (a 6,000-character hostlist) is quoted only in part: the error stays one short line.
    throw InputError(path + ":" + std::to_string(line) + ": " + clipped(what, 300));
  }
};

std::vector<std::string> hostlist(const Where& at, const std::string& key, const std::string& value, std::size_t& budget) {
  try {
    auto names = expand_hostlist(value, budget);
    budget -= names.size();
    return names;
  } catch (const std::invalid_argument& e) {
    at.fail(key + "=" + value + ": " + e.what() + " (write a Slurm hostlist like node[01-16,20])");
  }
}

FabricSwitch parse_line(const std::string& text, const Where& at, std::size_t& budget) {
  FabricSwitch sw;
  sw.line = at.line;
  std::istringstream words(text);
  bool named = false;
  for (std::string w; words >> w;) {
    const auto eq = w.find('=');
    if (eq == std::string::npos || eq == 0)
      at.fail("'" + w + "' is not KEY=VALUE (a line is SwitchName=NAME Nodes=HOSTLIST or Switches=HOSTLIST)");
    const std::string key = lower(w.substr(0, eq)), value = w.substr(eq + 1);
    if (value.empty()) at.fail(w.substr(0, eq) + "= has no value");
    if (key == "switchname") {
      if (named) at.fail("SwitchName= given twice on one line (one switch per line)");
      if (value.find_first_of("[],") != std::string::npos) at.fail("SwitchName=" + value + ": one name, not a list");
      sw.name = value;
      named = true;
    } else if (key == "nodes") {
      auto v = hostlist(at, "Nodes", value, budget);
      sw.nodes.insert(sw.nodes.end(), v.begin(), v.end());
    } else if (key == "switches") {
      auto v = hostlist(at, "Switches", value, budget);
      sw.switches.insert(sw.switches.end(), v.begin(), v.end());
    } else if (key == "linkspeed") {
      if (value.size() > 15 || !std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); }))
        at.fail("LinkSpeed=" + value + ": a whole number");
      sw.link_speed = std::stoll(value);
    } else if (key == "blockname" || key == "blocksizes") {
      at.fail(w.substr(0, eq) + "=: block topology is not read; describe the tree with SwitchName= lines");
    } else {
      at.fail("unknown key '" + w.substr(0, eq) + "' (known: SwitchName, Nodes, Switches, LinkSpeed)");
    }
  }
  if (!named) at.fail("no SwitchName= (each line describes one switch: SwitchName=NAME Nodes=... or Switches=...)");
  if (sw.nodes.empty() && sw.switches.empty()) at.fail("switch " + sw.name + " connects nothing: give Nodes= or Switches=");
  return sw;
}

// Whole-file checks: unique names, known children, one parent each, one switch per node, no loop.
void check_tree(const Fabric& f) {
  std::map<std::string, const FabricSwitch*> by_name;
  for (const auto& sw : f.switches) {
    const Where at{f.path, sw.line};
    if (by_name.count(sw.name))
      at.fail("switch " + sw.name + " is described twice (first on line " + std::to_string(by_name[sw.name]->line) + ")");
    by_name[sw.name] = &sw;
  }
  std::map<std::string, const FabricSwitch*> parent, node_switch;
  for (const auto& sw : f.switches) {
    const Where at{f.path, sw.line};
    for (const auto& child : sw.switches) {
      if (!by_name.count(child)) at.fail("Switches= names " + child + ", which no SwitchName= line describes");
      if (child == sw.name) at.fail("switch " + sw.name + " lists itself in Switches=");
      if (parent.count(child))
        at.fail("switch " + child + " is below two switches (" + parent[child]->name + " and " + sw.name + "); a tree gives each one parent");
      parent[child] = &sw;
    }
    for (const auto& node : sw.nodes) {
      if (node_switch.count(node))
        at.fail("node " + node + " hangs off two switches (" + node_switch[node]->name + " and " + sw.name + ")");
      node_switch[node] = &sw;
    }
  }
  for (const auto& sw : f.switches) {  // walking up from any switch must end within the switch count
    const FabricSwitch* s = &sw;
    for (std::size_t steps = 0; parent.count(s->name); ++steps) {
      if (steps > f.switches.size()) Where{f.path, sw.line}.fail("switch " + sw.name + " is its own ancestor (a loop in Switches=)");
      s = parent[s->name];
    }
  }
}

}  // namespace

Fabric parse_fabric(const std::string& text, const std::string& path) {
  Fabric f;
  f.path = path;
  std::size_t budget = kMaxHostlistNames;
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    f.switches.push_back(parse_line(line, Where{path, n}, budget));
  }
  if (f.switches.empty()) throw InputError(path + ": no SwitchName= line (write one line per switch, e.g. SwitchName=leaf1 Nodes=node[01-16])");
  check_tree(f);
  return f;
}

Fabric load_fabric(const std::string& path) {
  return parse_fabric(read_input_file<InputError>(path, kFabricInput), path);
}

std::vector<int> leaf_of_hosts(const Fabric& f, const std::vector<std::string>& hosts) {
  std::map<std::string, int, std::less<>> leaf_of;
  int leaf = 0;
  for (const auto& sw : f.switches) {
    if (sw.nodes.empty()) continue;
    for (const auto& h : sw.nodes) leaf_of.emplace(h, leaf);
    ++leaf;
  }
  std::vector<int> out;
  for (const auto& h : hosts) {
    const auto it = leaf_of.find(h);
    out.push_back(it == leaf_of.end() ? -1 : it->second);
  }
  return out;
}

gpunet::json fabric_json(const Fabric& f) {
  gpunet::json sws = gpunet::json::array();
  for (const auto& sw : f.switches) {
    gpunet::json j = {{"name", sw.name}, {"nodes", sw.nodes}, {"switches", sw.switches}};
    if (sw.link_speed) j["link_speed"] = *sw.link_speed;
    sws.push_back(std::move(j));
  }
  return {{"file", f.path}, {"switches", sws}};
}

}  // namespace gpunet::topo
