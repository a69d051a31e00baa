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

// A matrix pair's TCP ceiling (one flow each way at each end, as the matrix runs them); 0 when unknown.
double pair_ceiling(const std::map<std::string, json>& links, const std::string& src, const std::string& dst) {
  const auto a = links.find(src), b = links.find(dst);
  if (a == links.end() || b == links.end()) return 0;
  const Ceiling c = tcp_flow_ceiling(a->second, b->second, 1, 1);
  return c.known ? c.value : 0;
}

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
  for (std::size_t i = 0; i < hosts.size() && i < g->size(); ++i) {
    const json& row = (*g)[i];
    if (!row.is_array()) continue;
    for (std::size_t j = 0; j < hosts.size() && j < row.size(); ++j) {
      if (i == j || !row[j].is_number()) continue;
      const auto it = alone.find({hosts[i], hosts[j]});
      out.push_back({hosts[i], hosts[j], it != alone.end() ? it->second : row[j].get<double>(),
                     pair_ceiling(links, hosts[i], hosts[j])});
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
