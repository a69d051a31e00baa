#include "report/sections.hpp"

#include <algorithm>
#include <unordered_map>

#include "report/analysis.hpp"
#include "report/json_access.hpp"

namespace gpunet::report {

CeilingView ceiling_view(const Record& r) {
  CeilingView v;
  const auto* c = jsonx::object_at(r.extra, "ceiling");
  if (!c) return v;
  v.known = jsonx::boolean(*c, "known").value_or(false);
  v.value = jsonx::number(*c, "value").value_or(0);
  v.unit = jsonx::string(*c, "unit").value_or("");
  v.derivation = jsonx::string(*c, "derivation").value_or("");
  v.reason = jsonx::string(*c, "reason").value_or("");
  v.efficiency = jsonx::number(*c, "efficiency");
  v.explanation = jsonx::string(*c, "explanation").value_or("");
  return v;
}

std::string SweepGroup::title() const {
  std::string t = suite + " " + name;
  if (!variant.empty()) t += " (" + variant + ")";
  if (!dtype.empty() || !op.empty()) t += ", " + dtype + (op.empty() ? "" : " " + op);
  if (ranks > 0) t += ", " + std::to_string(ranks) + " rank" + (ranks == 1 ? "" : "s");
  if (!host.empty()) t += ", " + host;
  if (rank != 0) t += " rank " + std::to_string(rank);
  return t;
}

std::vector<SweepGroup> sweep_groups(const Report& rep) {
  std::vector<SweepGroup> groups;
  std::unordered_map<std::string, size_t> index;
  for (const auto& r : rep.results) {
    if (r.bytes <= 0) continue;
    std::string key = r.suite + '\x1f' + r.name + '\x1f' + r.variant + '\x1f' + r.dtype + '\x1f' + r.op + '\x1f' +
                      std::to_string(r.ranks) + '\x1f' + r.host + '\x1f' + std::to_string(r.rank);
    auto [it, fresh] = index.try_emplace(std::move(key), groups.size());
    if (fresh) groups.push_back(SweepGroup{r.suite, r.name, r.variant, r.dtype, r.op, r.host, r.ranks, r.rank, {}});
    groups[it->second].rows.push_back(&r);
  }
  for (auto& g : groups)
    std::stable_sort(g.rows.begin(), g.rows.end(), [](const Record* a, const Record* b) { return a->bytes < b->bytes; });
  return groups;
}

std::vector<const Record*> point_records(const Report& rep) {
  std::vector<const Record*> out;
  for (const auto& r : rep.results)
    if (r.bytes <= 0) out.push_back(&r);
  return out;
}

std::vector<const Record*> records_to_explain(const Report& rep) {
  std::vector<const Record*> out;
  for (const auto& g : sweep_groups(rep)) {
    const Record* best = nullptr;
    double best_eff = -1;
    for (const Record* r : g.rows)
      if (auto e = ceiling_view(*r).efficiency; e && *e > best_eff) {
        best = r;
        best_eff = *e;
      }
    if (best && !ceiling_view(*best).explanation.empty()) out.push_back(best);
  }
  for (const Record* r : point_records(rep))
    if (!ceiling_view(*r).explanation.empty()) out.push_back(r);
  return out;
}

std::string figure_text(const Record& r) {
  const auto f = record_figure(r);
  if (!f) return "";
  return format_figure(f->value) + " " + f->unit + " " + f->label;
}

}  // namespace gpunet::report
