#include "report/judge/verdicts_topology.hpp"

#include "report/judge/spec_match.hpp"
#include "report/text/text_format.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace gpunet::report {

namespace {

std::string link_str(const PcieLink& l) { return "Gen" + std::to_string(l.gen) + " x" + std::to_string(l.width); }

std::string limit_str(const LinkSpec& s) {
  std::string out = ">=";
  if (s.gen) out += " Gen" + std::to_string(*s.gen);
  if (s.width) out += " x" + std::to_string(*s.width);
  return out;
}

bool meets(const PcieLink& l, const LinkSpec& s) {
  return (!s.gen || l.gen >= *s.gen) && (!s.width || l.width >= *s.width);
}

// "0000:17:00.0", "00000000:17:00.0" and "0000:17:00.0" upper case all name the same device.
std::string norm_bus(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const auto colon = s.find(':');
  if (colon == 8 && s.find(':', colon + 1) != std::string::npos) s = s.substr(4);
  return s;
}

std::string listed(const std::vector<std::string>& items, std::size_t shown = 3) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < shown; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > shown) out += " and " + std::to_string(items.size() - shown) + " more";
  return out;
}

std::string speed_str(const std::optional<double>& gbps) { return gbps ? fmt_num(*gbps) + " Gb/s" : "unknown speed"; }

Verdict no_topology(std::string promise, std::string limit) {
  return {std::move(promise), VerdictStatus::skip, "-", std::move(limit),
          "the report has no per-node topology (run the topo suite)", {}, {}};
}

// One device judged on its PCIe link.
struct LinkSeen {
  std::string where;  // "node-b 0000:3b:00.0"
  PcieLink link;
};

Verdict judge_links(const std::string& promise, const std::string& what, const std::vector<LinkSeen>& seen,
                    std::size_t without, std::size_t nodes, const LinkSpec& spec) {
  const std::string limit = limit_str(spec);
  if (seen.empty() && without == 0) return {promise, VerdictStatus::skip, "-", limit, "no " + what + " in the topology of any node", {}, {}};
  if (seen.empty()) return {promise, VerdictStatus::skip, "-", limit, "no PCIe link data for the " + count_of(without, what), {}, {}};
  std::vector<std::string> bad;
  const LinkSeen* worst = &seen.front();
  for (const auto& s : seen) {
    if (!meets(s.link, spec)) bad.push_back(s.where + " at " + link_str(s.link));
    const bool s_bad = !meets(s.link, spec), w_bad = !meets(worst->link, spec);
    if ((s_bad && !w_bad) || (s_bad == w_bad && std::pair(s.link.gen, s.link.width) < std::pair(worst->link.gen, worst->link.width)))
      worst = &s;
  }
  const std::string note = without ? " (" + count_of(without, what) + " without link data left out)" : "";
  const std::string measured = link_str(worst->link) + " (" + worst->where + ")";
  if (!bad.empty())
    return {promise, VerdictStatus::fail, measured, limit,
            count_of(bad.size(), what) + " below the promised link: " + listed(bad) + note, {}, {}};
  return {promise, VerdictStatus::pass, measured, limit,
          "all " + count_of(seen.size(), what) + " on " + count_of(nodes, "node") + " meet it" + note, {}, {}};
}

}  // namespace

bool nic_counted(const NicFact& nic, const std::string& match) {
  if (match.empty()) return true;
  return std::any_of(nic.names.begin(), nic.names.end(), [&](const std::string& n) { return pattern_found(match, n); });
}

static Verdict check_nic_inventory(const std::vector<NodeFacts>& nodes, const NicSpec& spec);

namespace {

// The NIC (or netdev) of `node` that owns interface `iface`, or nullptr.
const NicFact* owner_of(const NodeFacts& node, const std::string& iface) {
  for (const auto* list : {&node.nics, &node.netdevs})
    for (const auto& n : *list)
      if (std::find(n.names.begin(), n.names.end(), iface) != n.names.end()) return &n;
  return nullptr;
}

// The nodes with their NICs narrowed to those that carried traffic (see check_nic), and the list of
// what was judged ("fc-node0 eth0, ...").
std::vector<NodeFacts> carrier_nodes(const std::vector<NodeFacts>& nodes, const std::vector<CarrierIface>& carried,
                                     std::vector<std::string>& judged) {
  std::vector<NodeFacts> out = nodes;
  for (auto& node : out) {
    std::vector<NicFact> mine;
    for (const auto& c : carried) {
      if (c.host != node.host) continue;
      const NicFact* n = owner_of(node, c.iface);
      NicFact f = n ? *n : NicFact{};
      if (!n) f.name = c.iface, f.names = {c.iface};
      if (f.name != c.iface) f.name = c.iface + " (" + f.name + ")";
      if (std::none_of(mine.begin(), mine.end(), [&](const NicFact& m) { return m.name == f.name; })) {
        mine.push_back(f);
        judged.push_back(node.host + " " + c.iface);
      }
    }
    if (!mine.empty()) node.nics = std::move(mine);
  }
  return out;
}

}  // namespace

Verdict check_nic(const std::vector<NodeFacts>& all_nodes, const NicSpec& spec, const std::vector<CarrierIface>& carried) {
  std::vector<std::string> judged;
  const bool by_traffic = spec.speed_Gbps && !spec.count && spec.match.empty() && !carried.empty();
  const std::vector<NodeFacts> nodes = by_traffic ? carrier_nodes(all_nodes, carried, judged) : all_nodes;
  Verdict v = check_nic_inventory(nodes, spec);
  if (!judged.empty()) v.reason = "the interfaces that carried the run's traffic (" + listed(judged, 8) + "): " + v.reason;
  return v;
}

// Every NIC of the topology (those nic.match counts).
static Verdict check_nic_inventory(const std::vector<NodeFacts>& nodes, const NicSpec& spec) {
  std::string limit;
  if (spec.count) limit = ">= " + count_of(static_cast<std::size_t>(*spec.count), "NIC") + " per node";
  if (spec.speed_Gbps) limit += std::string(spec.count ? " at" : "every NIC at") + " >= " + fmt_num(*spec.speed_Gbps) + " Gb/s";
  if (!spec.match.empty()) limit += " (names matching " + spec.match + ")";
  if (nodes.empty()) return no_topology("nic", limit);

  // A NIC whose interface is down carries nothing, whatever its rated speed: it never counts, and a
  // promise on every NIC's speed fails on it, naming the interface.
  const auto fast_enough = [&](const NicFact& n) {
    return n.down.empty() && (!spec.speed_Gbps || (n.speed_Gbps && *n.speed_Gbps >= *spec.speed_Gbps));
  };
  // A speed that cannot be read is no evidence of a slow NIC: such a NIC makes the promise unjudged,
  // never failed.
  const auto unknown_speed = [&](const NicFact& n) { return spec.speed_Gbps && !n.speed_Gbps; };
  std::vector<std::string> bad, unknown;
  bool count_unknown = false;
  std::size_t fewest = SIZE_MAX, seen = 0;
  std::string fewest_host, slowest;
  std::optional<double> slowest_speed;
  for (const auto& node : nodes) {
    std::vector<std::string> listing;
    std::size_t good = 0, unread = 0;
    for (const auto& n : node.nics) {
      if (!nic_counted(n, spec.match)) continue;
      ++seen;
      listing.push_back(n.name + " " + (n.down.empty() ? speed_str(n.speed_Gbps) : n.down == n.name ? "down" : n.down + " down"));
      if (fast_enough(n)) ++good;
      else if (!n.down.empty() && !spec.count)
        bad.push_back(node.host + " " + (n.down == n.name ? n.name : n.name + " (" + n.down + ")") + " is down");
      else if (!n.down.empty()) continue;  // counted short below, listed as down
      else if (unknown_speed(n)) ++unread, unknown.push_back(node.host + " " + n.name);
      else if (!spec.count) bad.push_back(node.host + " " + n.name + " at " + speed_str(n.speed_Gbps));
      if (!slowest_speed || n.speed_Gbps.value_or(0) < *slowest_speed) {
        slowest_speed = n.speed_Gbps.value_or(0);
        slowest = speed_str(n.speed_Gbps) + " (" + node.host + " " + n.name + ")";
      }
    }
    if (good < fewest) fewest = good, fewest_host = node.host;
    if (spec.count && good < static_cast<std::size_t>(*spec.count) && good + unread >= static_cast<std::size_t>(*spec.count))
      count_unknown = true;
    else if (spec.count && good < static_cast<std::size_t>(*spec.count))
      bad.push_back(node.host + " has " + std::to_string(good) + " (" + (listing.empty() ? "no NIC" : listed(listing, 8)) + ")");
  }
  if (spec.count) {
    const std::string measured = std::to_string(fewest) + " (fewest, on " + fewest_host + ")";
    if (!bad.empty()) return {"nic", VerdictStatus::fail, measured, limit, listed(bad), {}, {}};
    if (count_unknown)
      return {"nic", VerdictStatus::skip, measured, limit, "not judged: the speed of " + listed(unknown) + " cannot be read", {}, {}};
    return {"nic", VerdictStatus::pass, measured, limit, "every one of " + count_of(nodes.size(), "node") + " has enough", {}, {}};
  }
  if (seen == 0) return {"nic", VerdictStatus::skip, "-", limit, "no NIC matches on any node", {}, {}};
  if (!bad.empty()) return {"nic", VerdictStatus::fail, slowest, limit, count_of(bad.size(), "NIC") + " too slow or down: " + listed(bad), {}, {}};
  if (!unknown.empty())
    return {"nic", VerdictStatus::skip, slowest, limit, "not judged: the speed of " + listed(unknown) + " cannot be read", {}, {}};
  return {"nic", VerdictStatus::pass, slowest, limit, "all " + count_of(seen, "NIC") + " meet it", {}, {}};
}

Verdict check_pcie_gpu(const std::vector<NodeFacts>& nodes, const LinkSpec& spec) {
  if (nodes.empty()) return no_topology("pcie.gpu", limit_str(spec));
  std::vector<LinkSeen> seen;
  std::size_t without = 0;
  for (const auto& node : nodes)
    for (const auto& g : node.gpus) {
      if (g.link) seen.push_back({node.host + " " + g.bus_id, *g.link});
      else ++without;
    }
  return judge_links("pcie.gpu", "GPU", seen, without, nodes.size(), spec);
}

Verdict check_pcie_nic(const std::vector<NodeFacts>& nodes, const LinkSpec& spec, const std::string& match) {
  if (nodes.empty()) return no_topology("pcie.nic", limit_str(spec));
  std::vector<LinkSeen> seen;
  std::size_t without = 0;
  for (const auto& node : nodes)
    for (const auto& n : node.nics) {
      if (!nic_counted(n, match) || (n.bus_id.empty() && !n.link)) continue;  // virtual NICs have no PCIe link
      if (n.link) seen.push_back({node.host + " " + n.name, *n.link});
      else ++without;
    }
  return judge_links("pcie.nic", "NIC", seen, without, nodes.size(), spec);
}

Verdict check_locality(const std::vector<NodeFacts>& nodes, PathClass worst, const std::string& match) {
  const std::string limit = "nearest NIC at " + to_string(worst) + " or closer";
  if (nodes.empty()) return no_topology("locality", limit);
  std::vector<std::string> bad;
  std::size_t gpus = 0, judged = 0;
  std::optional<PathClass> worst_seen;
  std::string worst_where;
  for (const auto& node : nodes) {
    for (const auto& g : node.gpus) {
      ++gpus;
      std::optional<PathClass> best;
      std::string best_nic;
      for (const auto& p : node.paths) {
        if (norm_bus(p.gpu) != norm_bus(g.bus_id)) continue;
        const auto nic = std::find_if(node.nics.begin(), node.nics.end(),
                                      [&](const NicFact& n) { return norm_bus(n.bus_id) == norm_bus(p.nic); });
        if (nic == node.nics.end() ? !match.empty() : !nic_counted(*nic, match)) continue;
        const std::string name = nic == node.nics.end() ? p.nic : nic->name;
        if (!best || p.cls < *best) best = p.cls, best_nic = name;
      }
      if (!best) continue;
      ++judged;
      const std::string where = node.host + " GPU " + g.bus_id + " -> " + best_nic;
      if (*best > worst) bad.push_back(where + " " + to_string(*best));
      if (!worst_seen || *best > *worst_seen) worst_seen = best, worst_where = where;
    }
  }
  if (gpus == 0) return {"locality", VerdictStatus::skip, "-", limit, "no GPU in the topology of any node", {}, {}};
  if (judged == 0) return {"locality", VerdictStatus::skip, "-", limit, "no GPU-NIC path data for the " + count_of(gpus, "GPU"), {}, {}};
  const std::string measured = to_string(*worst_seen) + " (" + worst_where + ")";
  const std::string note = judged < gpus ? " (" + count_of(gpus - judged, "GPU") + " without path data left out)" : "";
  if (!bad.empty())
    return {"locality", VerdictStatus::fail, measured, limit, count_of(bad.size(), "GPU") + " too far from any NIC: " + listed(bad) + note, {}, {}};
  return {"locality", VerdictStatus::pass, measured, limit, "all " + count_of(judged, "GPU") + " have a NIC close enough" + note, {}, {}};
}

Verdict check_same_topology(const std::vector<NodeFacts>& nodes, const std::string& match) {
  const std::string promise = "homogeneity.topology", limit = "every node alike";
  if (nodes.empty()) return no_topology(promise, limit);
  if (nodes.size() < 2)
    return {promise, VerdictStatus::skip, "-", limit, "needs at least 2 nodes (the report has 1)", {}, {}};
  const auto signature = [&](const NodeFacts& n) {
    std::vector<std::string> gpus, nics;
    for (const auto& g : n.gpus) gpus.push_back(g.link ? link_str(*g.link) : "link unknown");
    for (const auto& x : n.nics)
      if (nic_counted(x, match)) nics.push_back(speed_str(x.speed_Gbps) + (x.link ? " " + link_str(*x.link) : ""));
    std::sort(gpus.begin(), gpus.end());
    std::sort(nics.begin(), nics.end());
    return count_of(gpus.size(), "GPU") + (gpus.empty() ? "" : " [" + listed(gpus, 64) + "]") + ", " +
           count_of(nics.size(), "NIC") + (nics.empty() ? "" : " [" + listed(nics, 64) + "]");
  };
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& n : nodes) groups[signature(n)].push_back(n.host);
  const auto common = std::max_element(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return a.second.size() < b.second.size();
  });
  const std::string measured = std::to_string(common->second.size()) + " of " + std::to_string(nodes.size()) + " nodes alike";
  if (groups.size() == 1) return {promise, VerdictStatus::pass, measured, limit, "every node has " + common->first, {}, {}};
  std::vector<std::string> odd;
  for (const auto& [sig, hosts] : groups)
    if (&sig != &common->first) odd.push_back(listed(hosts) + " has " + sig);
  return {promise, VerdictStatus::fail, measured, limit,
          listed(odd, 4) + "; most nodes have " + common->first, {}, {}};
}

}  // namespace gpunet::report
