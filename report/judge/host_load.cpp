#include "report/judge/host_load.hpp"

#include <algorithm>
#include <cstdio>

#include "report/judge/figure_select.hpp"
#include "report/model/json_access.hpp"

namespace gpunet::report {

std::vector<BusyHost> busy_hosts(const Report& rep) {
  std::vector<BusyHost> out;
  for (const auto& r : rep.results) {  // the counters records: name = the suite measured, host = the node
    const auto* load = jsonx::object_at(r.extra, "host_load");
    if (!load || !load->contains("busy") || !(*load)["busy"].is_boolean() || !(*load)["busy"].get<bool>()) continue;
    out.push_back({r.host, r.name, jsonx::string(*load, "summary").value_or("its CPUs were busy with other work"), ""});
  }
  for (const auto& r : rep.results) {
    const auto* window = jsonx::array_at(r.extra, "host_load_window");
    if (!window || !r.figure) continue;
    for (const auto& load : *window)
      if (load.is_object() && jsonx::boolean(load, "busy").value_or(false))
        out.push_back({jsonx::string(load, "host").value_or(r.host), r.suite,
                       jsonx::string(load, "summary").value_or("its CPUs were busy with other work"),
                       figure_key(figure_fact_of(r))});
  }
  return out;
}

std::string host_load_text(const Report& rep) {
  struct Worst {
    double pct = -1;
    std::string host;
    bool busy = false;
  };
  std::vector<std::pair<std::string, Worst>> suites;  // in report order
  for (const auto& r : rep.results) {
    const auto* load = jsonx::object_at(r.extra, "host_load");
    const auto pct = load ? jsonx::number(*load, "others_pct") : std::nullopt;
    if (!pct) continue;
    auto it = std::find_if(suites.begin(), suites.end(), [&](const auto& s) { return s.first == r.name; });
    if (it == suites.end()) it = suites.insert(suites.end(), {r.name, Worst{}});
    const bool busy = load->contains("busy") && (*load)["busy"].is_boolean() && (*load)["busy"].get<bool>();
    it->second.busy = it->second.busy || busy;
    if (*pct > it->second.pct) it->second.pct = *pct, it->second.host = r.host;
  }
  std::string out;
  for (const auto& [suite, w] : suites) {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.0f %%", w.pct);
    out += (out.empty() ? "" : ", ") + suite + " " + pct + (w.pct >= 1 ? " on " + w.host : "") + (w.busy ? " (busy)" : "");
  }
  return out;
}

void discount_busy_hosts(BaselineComparison& c, const std::vector<BusyHost>& busy) {
  for (auto& row : c.rows) {
    if (row.change != Change::slower) continue;
    const std::string suite = row.key.substr(0, row.key.find('/'));
    const auto hit = std::find_if(busy.begin(), busy.end(), [&](const BusyHost& b) {
      if (!b.figure.empty()) return b.figure == row.key;
      return b.suite == suite &&
             (row.hosts.empty() || std::find(row.hosts.begin(), row.hosts.end(), b.host) != row.hosts.end());
    });
    if (hit == busy.end()) continue;
    row.change = Change::uncertain;
    row.reason = "measured while " + hit->host + " was busy: " + hit->why + " (without that: " + row.reason + ")";
  }
}

std::string busy_hosts_text(const std::vector<BusyHost>& busy, size_t run_hosts) {
  std::vector<std::string> hosts, suites;
  for (const auto& b : busy) {
    if (std::find(hosts.begin(), hosts.end(), b.host) == hosts.end()) hosts.push_back(b.host);
    if (std::find(suites.begin(), suites.end(), b.suite) == suites.end()) suites.push_back(b.suite);
  }
  if (hosts.empty()) return "";
  std::string during;
  for (size_t i = 0; i < suites.size(); ++i) during += (i ? ", " : "") + suites[i];
  if (hosts.size() > 1 && hosts.size() >= run_hosts)
    return "every one of the " + std::to_string(hosts.size()) + " hosts was busy with other work during " + during +
           ": a cause common to the hosts, not one node's network; figures measured then tell about the hosts";
  std::string text;
  for (size_t i = 0; i < hosts.size(); ++i) text += (i == 0 ? "" : i + 1 == hosts.size() ? " and " : ", ") + hosts[i];
  return text + (hosts.size() == 1 ? " was" : " were") + " busy with other work during " + during +
         "; figures measured then tell about the hosts more than about the network";
}

}  // namespace gpunet::report
