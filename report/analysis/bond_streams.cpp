#include "report/analysis/bond_streams.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "report/analysis/ceilings.hpp"
#include "report/model/json_access.hpp"
#include "report/analysis/topology_view.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

constexpr double kBondSlack = 1.05;  // measured goodput above one member's rate by less than this is still one member

// The interface `name` of a topology node, or null.
const json* interface_of(const json& node, const std::string& name) {
  if (const json* list = jsonx::array_at(node, "interfaces"))
    for (const auto& i : *list)
      if (jsonx::string(i, "name") == name) return &i;
  return nullptr;
}

// An interface's rate in Gb/s: its speed, or a lower tc shaping; 0 when neither is known.
double interface_Gbps(const json& i) {
  const double speed = jsonx::number(i, "speed_Mbps").value_or(0) / 1000;
  const double shaped = jsonx::number(i, "shaped_rate_bps").value_or(0) / 1e9;
  if (speed > 0 && shaped > 0) return std::min(speed, shaped);
  return std::max(speed, shaped);
}

// The bond's members that are up, with their rates; empty when `i` is no bond.
std::vector<double> up_members(const json& node, const json& i) {
  std::vector<double> out;
  if (jsonx::string(i, "kind") != "bond") return out;
  if (const json* members = jsonx::array_at(i, "members"))
    for (const auto& m : *members) {
      const json* member = m.is_string() ? interface_of(node, m.get<std::string>()) : nullptr;
      if (member && jsonx::string(*member, "operstate") == "up") out.push_back(interface_Gbps(*member));
    }
  return out;
}

std::string rate_words(double Gbps) { return format_figure(Gbps) + " Gb/s"; }

}  // namespace

std::string bond_one_member_sentence(const BondLoad& b) {
  if (b.streams < 2 || b.member_Gbps.size() < 2) return "";
  const double one = *std::max_element(b.member_Gbps.begin(), b.member_Gbps.end());
  double together = 0;
  for (const double m : b.member_Gbps) together += m;
  if (one <= 0 || b.reached_Gbps > one * kBondSlack || together <= one * kBondSlack) return "";
  return b.host + " " + b.bond + (b.mode.empty() ? "" : " (" + b.mode + ")") + ": " + std::to_string(b.streams) +
         " streams reached " + rate_words(b.reached_Gbps) + ", one member's rate " + rate_words(one) + " of " +
         std::to_string(b.member_Gbps.size()) + " members (" + rate_words(together) +
         " together): the bond's transmit hash put every stream on one member. Fix: hash by addresses and ports "
         "(xmit_hash_policy=layer3+4; layer2 sends everything to one peer over one member), and test with several "
         "peers; with 802.3ad the switch hashes what comes back.";
}

namespace {

// A bond of the topology: its mode and the rates of its members that are up.
struct Bond {
  std::string mode;
  std::vector<double> member_Gbps;
};

// The topology's bonds with a member up, by host and interface name.
std::map<std::pair<std::string, std::string>, Bond> topology_bonds(const TopologyView& topo) {
  std::map<std::pair<std::string, std::string>, Bond> bonds;
  for (const auto& host : topo.hosts()) {
    const json* node = topo.node(host);
    const json* list = node ? jsonx::array_at(*node, "interfaces") : nullptr;
    if (!list) continue;
    std::set<std::string> named;  // the first interface of a name is the one a flow's names (interface_of)
    for (const auto& i : *list) {
      const auto name = jsonx::string(i, "name");
      if (!name || !named.insert(*name).second) continue;
      auto members = up_members(*node, i);
      if (!members.empty()) bonds.try_emplace({host, *name}, Bond{jsonx::string(i, "bond_mode").value_or(""), std::move(members)});
    }
  }
  return bonds;
}

}  // namespace

std::vector<BondLoad> bond_loads(const Report& rep) {
  const auto bonds = topology_bonds(TopologyView(rep.topology));
  if (bonds.empty()) return {};
  // host, sending interface, test start, test kind -> the load
  std::map<std::tuple<std::string, std::string, double, std::string>, BondLoad> loads;
  for (const auto& r : rep.results) {
    if (record_kind(r) != RecordKind::tcp_flow || r.status != Status::passed || !r.figure) continue;
    const std::string host = extra_string(r, "src_host").value_or("");
    const std::string iface = jsonx::string(link_facts(r, LinkEnd::own), "iface").value_or("");
    const auto bond = bonds.find({host, iface});
    if (bond == bonds.end()) continue;
    const auto test = r.figure->parameters.find("test");
    const auto key = std::make_tuple(host, iface, extra_number(r, "started_s").value_or(-1),
                                     test == r.figure->parameters.end() ? r.variant : test->second);
    auto [it, fresh] = loads.try_emplace(key);
    BondLoad& b = it->second;
    if (fresh) b = BondLoad{host, iface, bond->second.mode, bond->second.member_Gbps, 0, 0};
    const auto streams = r.figure->parameters.find("streams");
    b.streams += streams == r.figure->parameters.end() ? 1 : std::max(1, std::atoi(streams->second.c_str()));
    b.reached_Gbps += r.figure->value;
  }
  std::vector<BondLoad> out;
  for (auto& [key, b] : loads) out.push_back(std::move(b));
  return out;
}

json bond_stream_findings(const Report& rep) {
  std::map<std::pair<std::string, std::string>, const BondLoad*> worst;  // host, bond -> most streams on one member
  const auto loads = bond_loads(rep);
  for (const auto& b : loads) {
    if (bond_one_member_sentence(b).empty()) continue;
    auto& w = worst[{b.host, b.bond}];
    if (!w || b.streams > w->streams) w = &b;
  }
  json out = json::array();
  for (const auto& [key, b] : worst)
    out.push_back({{"severity", "warning"}, {"kind", "bond_one_member"}, {"message", bond_one_member_sentence(*b)},
                   {"subjects", json::array({b->host + ":" + b->bond})}, {"node", b->host}});
  return out;
}

}  // namespace gpunet::report
