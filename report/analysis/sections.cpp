#include "report/analysis/sections.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "report/analysis/analysis.hpp"
#include "report/model/json_access.hpp"

namespace gpunet::report {

CeilingView ceiling_view(const Record& r) {
  CeilingView v;
  if (!r.figure) {
    v.reason = r.status == Status::skipped ? "not measured (skipped)" : "the record measured no rate: no ceiling applies";
    return v;
  }
  if (!r.figure->ceiling) return v;
  const FigureCeiling& c = *r.figure->ceiling;
  v.known = c.known;
  v.value = c.value;
  v.unit = c.unit;
  v.derivation = c.derivation;
  v.reason = c.reason;
  v.efficiency = r.figure->efficiency;
  v.explanation = c.explanation;
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

std::vector<SweepFamily> sweep_families(const std::vector<SweepGroup>& groups) {
  std::vector<SweepFamily> out;
  std::unordered_map<std::string, size_t> index;
  for (const auto& g : groups) {
    std::string key = g.suite + '\x1f' + g.name + '\x1f' + g.variant + '\x1f' + g.dtype + '\x1f' + g.op + '\x1f' +
                      std::to_string(g.ranks);
    auto [it, fresh] = index.try_emplace(std::move(key), out.size());
    if (fresh) {
      SweepGroup common = g;
      common.host.clear();
      common.rank = 0;
      out.push_back(SweepFamily{common.title(), {}});
    }
    out[it->second].groups.push_back(&g);
  }
  return out;
}

std::vector<FamilyRow> family_rows(const SweepFamily& f) {
  std::map<int64_t, std::vector<const Record*>> by_size;
  for (const SweepGroup* g : f.groups)
    for (const Record* r : g->rows) by_size[r->bytes].push_back(r);
  std::vector<FamilyRow> rows;
  for (const auto& [bytes, recs] : by_size) {
    FamilyRow row;
    row.first = recs.front();
    std::vector<std::pair<double, const Record*>> figs;
    std::vector<double> effs;
    for (const Record* r : recs) {
      const auto fig = record_figure(*r);
      if (!fig || r->status != Status::passed) continue;
      row.unit = fig->unit;
      figs.emplace_back(fig->value, r);
      if (auto e = ceiling_view(*r).efficiency) effs.push_back(*e);
    }
    row.n = figs.size();
    if (!figs.empty()) {
      std::sort(figs.begin(), figs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      row.min = figs.front().first;
      row.max = figs.back().first;
      row.median = figs[figs.size() / 2].first;
      row.slowest = figs.front().second;
      if (auto c = ceiling_view(*row.slowest); c.known) row.ceiling = c;
    }
    if (!effs.empty()) {
      std::nth_element(effs.begin(), effs.begin() + static_cast<std::ptrdiff_t>(effs.size() / 2), effs.end());
      row.median_efficiency = effs[effs.size() / 2];
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<const SweepGroup*> family_slowest(const SweepFamily& f, size_t n) {
  std::vector<std::pair<double, const SweepGroup*>> last;
  for (const SweepGroup* g : f.groups) {
    for (auto it = g->rows.rbegin(); it != g->rows.rend(); ++it) {
      const auto fig = record_figure(**it);
      if (fig && (*it)->status == Status::passed) {
        last.emplace_back(fig->value, g);
        break;
      }
    }
  }
  std::stable_sort(last.begin(), last.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const SweepGroup*> out;
  for (size_t i = 0; i < last.size() && i < n; ++i) out.push_back(last[i].second);
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
    // No ceiling in the group (loopback): what explains a figure anyway (a saturated core) is shown.
    if (!best)
      for (const Record* r : g.rows)
        if (!ceiling_view(*r).explanation.empty()) out.push_back(r);
  }
  for (const Record* r : point_records(rep))
    if (!ceiling_view(*r).explanation.empty()) out.push_back(r);
  return out;
}

std::string figure_text(const Record& r) {
  const auto f = record_figure(r);
  if (!f) return "";
  return format_figure(f->value) + " " + f->unit + " " + metric_label(*f);
}

}  // namespace gpunet::report
