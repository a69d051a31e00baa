#include "report/analysis/fabric_view.hpp"

#include <algorithm>
#include <map>

#include "report/model/json_access.hpp"
#include "report/analysis/path_ceilings.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

const Record* tcp_matrix_of(const Report& rep) {
  for (const auto& r : rep.results)
    if (record_kind(r) == RecordKind::tcp_matrix) return &r;
  return nullptr;
}

std::vector<std::string> fabric_names(const json& j, const char* key) {
  std::vector<std::string> out;
  if (const json* a = jsonx::array_at(j, key))
    for (const auto& v : *a)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

// Each host's link as the tcp pair records describe it (extra.link of the sender, extra.dst_link of
// the receiver), for the pairs' ceilings.
std::map<std::string, json> host_links(const Report& rep) {
  std::map<std::string, json> out;
  for (const auto& r : rep.results) {
    if (record_kind(r) != RecordKind::tcp_flow) continue;
    for (const auto& [host_key, end] : {std::pair{"src_host", LinkEnd::own}, std::pair{"dst_host", LinkEnd::destination}}) {
      const auto host = extra_string(r, host_key);
      if (const json* facts = link_facts_at(r, end); host && facts) out.emplace(*host, *facts);
    }
  }
  return out;
}

// The matrix pairs' TCP ceilings (one flow each way at each end, as the matrix runs them; 0 when
// unknown). Hosts with equal link facts share their ceilings: a million pairs of 1,024 hosts have a
// few kinds of link, and each pair of kinds is worked out once.
class PairCeilings {
 public:
  PairCeilings(const std::map<std::string, json>& links, const std::vector<std::string>& hosts) {
    for (const auto& h : hosts) {
      const auto it = links.find(h);
      int kind = -1;
      if (it != links.end()) {
        const auto same = std::find_if(kinds_.begin(), kinds_.end(), [&](const json* k) { return *k == it->second; });
        kind = static_cast<int>(same - kinds_.begin());
        if (same == kinds_.end()) kinds_.push_back(&it->second);
      }
      kind_of_.push_back(kind);
    }
  }

  // The ceiling from hosts[i] to hosts[j].
  double at(std::size_t i, std::size_t j) {
    const int a = kind_of_[i], b = kind_of_[j];
    if (a < 0 || b < 0) return 0;
    const auto [it, fresh] = known_.try_emplace({a, b}, 0.0);
    if (fresh) {
      const Ceiling c = tcp_flow_ceiling(*kinds_[static_cast<std::size_t>(a)], *kinds_[static_cast<std::size_t>(b)], 1, 1);
      it->second = c.known ? c.value : 0;
    }
    return it->second;
  }

 private:
  std::vector<const json*> kinds_;  // the distinct link facts
  std::vector<int> kind_of_;        // per host: its kind, -1 when its link is unknown
  std::map<std::pair<int, int>, double> known_;
};

}  // namespace

bool has_fabric(const Report& rep) { return jsonx::array_at(jsonx::section(rep.extra, "fabric"), "switches") != nullptr; }

std::vector<FabricLeaf> fabric_leaves(const Report& rep) {
  const json* sws = jsonx::array_at(jsonx::section(rep.extra, "fabric"), "switches");
  if (!sws) return {};
  std::map<std::string, std::string> parent;
  for (const auto& sw : *sws)
    for (const auto& child : fabric_names(sw, "switches")) parent[child] = jsonx::string(sw, "name").value_or("");
  std::vector<FabricLeaf> out;
  for (const auto& sw : *sws) {
    FabricLeaf l{jsonx::string(sw, "name").value_or(""), "", fabric_names(sw, "nodes")};
    if (l.hosts.empty() || !parent.count(l.name)) continue;
    l.parent = parent[l.name];
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<PairGoodput> matrix_goodputs(const Report& rep) {
  const Record* m = tcp_matrix_of(rep);
  if (!m) return {};
  const auto hosts = fabric_names(m->extra, "hosts");
  const json* g = jsonx::array_at(m->extra, "goodput_Gbps");
  std::map<std::pair<std::string, std::string>, double> alone;
  if (const json* rt = jsonx::array_at(m->extra, "retests"))
    for (const auto& r : *rt)
      if (const auto v = jsonx::number(r, "goodput_Gbps"))
        alone[{jsonx::string(r, "src_host").value_or(""), jsonx::string(r, "dst_host").value_or("")}] = *v;
  std::vector<PairGoodput> out;
  if (!g) return out;
  const auto links = host_links(rep);
  PairCeilings ceilings(links, hosts);
  for (std::size_t i = 0; i < hosts.size() && i < g->size(); ++i) {
    const json& row = (*g)[i];
    if (!row.is_array()) continue;
    for (std::size_t j = 0; j < hosts.size() && j < row.size(); ++j) {
      if (i == j || !row[j].is_number()) continue;
      const auto it = alone.find({hosts[i], hosts[j]});
      out.push_back({hosts[i], hosts[j], it != alone.end() ? it->second : row[j].get<double>(),
                     ceilings.at(i, j)});
    }
  }
  return out;
}

double matrix_slow_fraction(const Report& rep) {
  const Record* m = tcp_matrix_of(rep);
  return m ? jsonx::number(m->extra, "suspect_fraction").value_or(0.8) : 0.8;
}

LinkLocation fabric_location(const Report& rep) {
  if (!has_fabric(rep)) return {};
  return locate_slow_links(matrix_goodputs(rep), fabric_leaves(rep), matrix_slow_fraction(rep));
}

std::optional<std::string> fabric_unknown_note(const Report& rep) {
  if (has_fabric(rep) || !tcp_matrix_of(rep)) return std::nullopt;
  int pairs = 0;
  for (const auto& r : rep.results)
    if (r.name == "finding" && r.status == Status::failed &&
        jsonx::string(jsonx::section(r.extra, "finding"), "subject").value_or("") == "pair")
      ++pairs;
  if (pairs < 2) return std::nullopt;
  return std::to_string(pairs) +
         " slow pairs name no single node; with --fabric FILE (Slurm's topology.conf) the report could tell whether "
         "they share a switch uplink";
}

}  // namespace gpunet::report
