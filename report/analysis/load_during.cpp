#include "report/analysis/load_during.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "report/model/json_access.hpp"

namespace gpunet::report {

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
  std::vector<bool> carries_load(rep.results.size());
  for (size_t i = 0; i < rep.results.size(); ++i)
    if (auto l = load_entry(rep.results[i])) loads.push_back(std::move(*l)), carries_load[i] = true;
  if (loads.empty()) return;
  rep.provenance.host_load = loads;
  for (size_t i = 0; i < rep.results.size(); ++i) {
    if (carries_load[i]) continue;
    Record& r = rep.results[i];
    const auto hosts = hosts_involved(r);
    gpunet::json during = gpunet::json::array();
    for (const auto& l : loads)
      if (l.suite == r.suite && (hosts.empty() || std::find(hosts.begin(), hosts.end(), l.host) != hosts.end()))
        during.push_back({{"host", l.host}, {"others_pct", l.others_pct}, {"steal_pct", l.steal_pct}, {"busy", l.busy}});
    if (!during.empty() && (r.extra.is_object() || r.extra.is_null())) r.extra["host_load_during"] = during;
  }
}

}  // namespace gpunet::report
