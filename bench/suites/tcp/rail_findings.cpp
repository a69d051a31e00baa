#include "bench/suites/tcp/rail_findings.hpp"

#include <algorithm>
#include <set>

#include "bench/suites/tcp/rails.hpp"
#include "report/model/figure.hpp"

namespace gpunet::bench::tcp {

using gpunet::json;

namespace {

std::string finding_subject(const report::Record& r) {
  const auto it = r.extra.find("finding");
  if (it == r.extra.end() || !it->is_object()) return "";
  return it->value("subject", "");
}

std::string rail_label(size_t k, const std::vector<std::string>& ifaces) {
  return "rail " + std::to_string(k) + (k < ifaces.size() && !ifaces[k].empty() ? " (" + ifaces[k] + ")" : "");
}

// The host finding of `host` on rail k (nullptr when it has none).
const report::Record* host_finding(const std::vector<report::Record>& rail, const std::string& host) {
  for (const auto& r : rail)
    if (finding_subject(r) == "host" && r.host == host) return &r;
  return nullptr;
}

report::Record nic_finding(const report::Record& on_rail, int k, const std::string& iface) {
  report::Record r = on_rail;
  r.variant = "nic";
  const std::string end = report::end_name(on_rail.host, iface);
  r.reason = end + ": rail " + std::to_string(k) + ": every pair on rail " + std::to_string(k) +
             " with it is slow and its other rails are fine (confirmed when re-tested); suspect " + iface +
             "'s cable, transceiver or switch port";
  json f = on_rail.extra.at("finding");
  f["subject"] = "nic";
  f["iface"] = iface;
  f["rail"] = k;
  r.extra["finding"] = f;
  return r;
}

report::Record node_finding(const std::vector<const report::Record*>& on_rails, const std::vector<std::string>& ifaces) {
  report::Record r = *on_rails.front();
  json pairs = json::array();
  std::string names;
  for (size_t k = 0; k < on_rails.size(); ++k) {
    for (const auto& d : on_rails[k]->extra.at("finding").value("pairs", json::array())) pairs.push_back(d);
    names += (k ? ", " : "") + (k < ifaces.size() ? ifaces[k] : std::to_string(k));
  }
  r.reason = "host " + r.host + ": every pair with it is slow on every rail (" + names +
             ", confirmed when re-tested): the node, not one NIC; suspect its host side (PCIe, CPU, NUMA, driver)";
  json f = on_rails.front()->extra.at("finding");
  f["pairs"] = pairs;
  f["rails"] = on_rails.size();
  r.extra["finding"] = f;
  return r;
}

report::Record rail_network_finding(const std::vector<report::Record>& rail, size_t k, const std::vector<std::string>& ifaces) {
  report::Record r = rail.front();
  r.variant = "network";
  r.reason = rail_label(k, ifaces) + ": every node is slow with every other on this rail while the other rails are fine; "
             "suspect this rail's network (its switch, its uplinks, its configuration)";
  r.extra["finding"] = {{"severity", "error"}, {"subject", "network"}, {"rail", k},
                        {"iface", k < ifaces.size() ? ifaces[k] : ""}};
  return r;
}

}  // namespace

std::vector<report::Record> rail_findings(const std::vector<std::vector<report::Record>>& per_rail,
                                          const std::vector<std::string>& ifaces) {
  std::vector<std::set<std::string>> slow_hosts(per_rail.size());
  std::vector<bool> all_slow(per_rail.size(), false);
  for (size_t k = 0; k < per_rail.size(); ++k)
    for (const auto& r : per_rail[k]) {
      if (finding_subject(r) == "host") slow_hosts[k].insert(r.host);
      if (finding_subject(r) == "network") all_slow[k] = true;
    }
  // Every rail slow everywhere: one cause common to all (each rail's network finding says so).
  if (per_rail.size() > 1 && std::find(all_slow.begin(), all_slow.end(), false) == all_slow.end()) {
    std::vector<report::Record> out;
    for (const auto& rail : per_rail) out.insert(out.end(), rail.begin(), rail.end());
    return out;
  }
  std::vector<report::Record> out;
  std::set<std::pair<std::string, size_t>> named;  // (host, rail) a finding covers
  for (const auto& b : localise(slow_hosts, all_slow)) {
    if (b.kind == RailBlame::Kind::rail) {
      const auto k = static_cast<size_t>(b.rail);
      out.push_back(rail_network_finding(per_rail[k], k, ifaces));
      continue;
    }
    std::vector<const report::Record*> on;
    for (size_t k = 0; k < per_rail.size(); ++k)
      if (const auto* f = host_finding(per_rail[k], b.host)) {
        if (b.kind == RailBlame::Kind::node || static_cast<int>(k) == b.rail) on.push_back(f);
        named.insert({b.host, k});
      }
    if (on.empty()) continue;
    if (b.kind == RailBlame::Kind::node) out.push_back(node_finding(on, ifaces));
    else out.push_back(nic_finding(*on.front(), b.rail, ifaces[static_cast<size_t>(b.rail)]));
  }
  // Pair findings on a rail that is not slow everywhere, when neither end is named on that rail.
  for (size_t k = 0; k < per_rail.size(); ++k) {
    if (all_slow[k]) continue;
    for (const auto& r : per_rail[k]) {
      if (finding_subject(r) != "pair") continue;
      const json& f = r.extra.at("finding");
      if (named.count({f.value("src_host", ""), k}) || named.count({f.value("dst_host", ""), k})) continue;
      report::Record p = r;
      p.reason = rail_label(k, ifaces) + ": " + r.reason;
      p.extra["finding"]["rail"] = k;
      p.extra["finding"]["iface"] = k < ifaces.size() ? ifaces[k] : "";
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace gpunet::bench::tcp
