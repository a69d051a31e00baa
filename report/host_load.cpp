#include "report/host_load.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "report/json_access.hpp"

namespace gpunet::report {

std::vector<BusyHost> busy_hosts(const Report& rep) {
  std::vector<BusyHost> out;
  for (const auto& r : rep.results) {  // the counters records: name = the suite measured, host = the node
    const auto* load = jsonx::object_at(r.extra, "host_load");
    if (!load || !load->contains("busy") || !(*load)["busy"].is_boolean() || !(*load)["busy"].get<bool>()) continue;
    out.push_back({r.host, r.name, jsonx::string(*load, "summary").value_or("its CPUs were busy with other work")});
  }
  return out;
}

namespace {

// The counters records carry extra.host_load (others_pct at least); nothing else does.
std::optional<HostLoadEntry> load_entry(const Record& r) {
  const auto* load = jsonx::object_at(r.extra, "host_load");
  const auto others = load ? jsonx::number(*load, "others_pct") : std::nullopt;
  if (!others) return std::nullopt;
  return HostLoadEntry{r.name, r.host, *others, jsonx::number(*load, "steal_pct").value_or(0),
                       jsonx::boolean(*load, "busy").value_or(false)};
}

std::vector<std::string> hosts_involved(const Record& r) {
  if (!r.figure) return {r.host};
  const Subject& s = r.figure->subject;
  if (s.kind == SubjectKind::cluster || s.kind == SubjectKind::group) return {};  // every node
  std::vector<std::string> out{s.host};
  if (!s.dst_host.empty() && s.dst_host != s.host) out.push_back(s.dst_host);
  return out;
}

}  // namespace

void attach_host_load(Report& rep) {
  std::vector<HostLoadEntry> loads;
  for (const auto& r : rep.results)
    if (auto l = load_entry(r)) loads.push_back(std::move(*l));
  if (loads.empty()) return;
  rep.provenance.host_load = loads;
  for (auto& r : rep.results) {
    if (load_entry(r)) continue;
    const auto hosts = hosts_involved(r);
    nlohmann::json during = nlohmann::json::array();
    for (const auto& l : loads)
      if (l.suite == r.suite && (hosts.empty() || std::find(hosts.begin(), hosts.end(), l.host) != hosts.end()))
        during.push_back({{"host", l.host}, {"others_pct", l.others_pct}, {"steal_pct", l.steal_pct}, {"busy", l.busy}});
    if (!during.empty() && (r.extra.is_object() || r.extra.is_null())) r.extra["host_load_during"] = during;
  }
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
