#include "report/html_charts.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "report/analysis.hpp"
#include "report/json_access.hpp"
#include "report/sections.hpp"
#include "report/text_format.hpp"
#include "report/topology_view.hpp"

namespace gpunet::report {

namespace {

std::vector<ChartLine> ceiling_lines(const std::vector<const Record*>& recs, const std::string& unit) {
  std::set<std::string> seen;
  std::vector<ChartLine> out;
  for (const Record* r : recs) {
    const auto c = ceiling_view(*r);
    if (!c.known || c.unit != unit) continue;
    const std::string label = "ceiling " + format_figure(c.value) + " " + unit;
    if (seen.insert(label).second) out.push_back(ChartLine{label, c.value});
  }
  std::sort(out.begin(), out.end(), [](const ChartLine& a, const ChartLine& b) { return a.y > b.y; });
  if (out.size() > 4) out.erase(out.begin() + 2, out.end() - 2);  // the highest two and the lowest two
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string series_label(const SweepGroup& g) {
  std::string s = g.variant.empty() ? g.dtype : g.variant;
  if (g.ranks > 0) s += " " + std::to_string(g.ranks) + "r";
  if (!g.host.empty()) s += " " + g.host;
  if (g.rank != 0) s += "#" + std::to_string(g.rank);
  return s;
}

}  // namespace

std::vector<LineChart> size_charts(const Report& rep) {
  struct Bucket {
    Figure figure;
    std::vector<SweepGroup> groups;
  };
  std::vector<std::string> order;
  std::map<std::string, Bucket> buckets;
  for (auto& g : sweep_groups(rep)) {
    if (g.name == "scaling") continue;  // drawn against node count
    const Figure* f = nullptr;
    for (const Record* r : g.rows)
      if ((f = record_figure(*r))) break;
    if (!f) continue;
    const std::string key = g.suite + " " + g.name + "\x1f" + metric_label(*f) + "\x1f" + f->unit;
    auto [it, fresh] = buckets.try_emplace(key, Bucket{*f, {}});
    if (fresh) order.push_back(key);
    it->second.groups.push_back(std::move(g));
  }
  std::vector<LineChart> charts;
  for (const auto& key : order) {
    const Bucket& b = buckets.at(key);
    LineChart c;
    c.title = key.substr(0, key.find('\x1f')) + ": " + metric_label(b.figure) + " vs message size";
    c.x_label = "message size (log scale)";
    c.y_label = metric_label(b.figure) + " (" + b.figure.unit + ")";
    c.log2_x = true;
    c.x_format = AxisFormat::bytes;
    std::vector<const Record*> all;
    std::map<int64_t, std::vector<double>> by_size;
    for (const auto& g : b.groups) {
      ChartSeries s{series_label(g), {}, false, {}};
      for (const Record* r : g.rows) {
        all.push_back(r);
        const auto f = record_figure(*r);
        if (!f || r->status != Status::passed || f->unit != b.figure.unit) continue;
        s.points.emplace_back(static_cast<double>(r->bytes), f->value);
        by_size[r->bytes].push_back(f->value);
      }
      if (b.groups.size() <= kMaxSeriesPerChart && !s.points.empty()) c.series.push_back(std::move(s));
    }
    if (b.groups.size() > kMaxSeriesPerChart) {
      ChartSeries s{"median of " + std::to_string(b.groups.size()) + " sweeps (band: min-max)", {}, false, {}};
      for (const auto& [bytes, values] : by_size) {
        s.points.emplace_back(static_cast<double>(bytes), median(values));
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        s.band.emplace_back(*lo, *hi);
      }
      c.series.push_back(std::move(s));
    }
    c.ceilings = ceiling_lines(all, b.figure.unit);
    if (by_size.size() >= 2) charts.push_back(std::move(c));  // one size is not a sweep
  }
  return charts;
}

std::vector<LineChart> scaling_charts(const Report& rep) {
  // (suite name) -> bytes -> nodes -> record
  std::map<std::string, std::map<int64_t, std::map<int, const Record*>>> data;
  std::vector<std::string> order;
  for (const auto& r : rep.results) {
    const auto nodes = jsonx::integer(r.extra, "nodes");
    if (!nodes || *nodes <= 0 || r.status != Status::passed || !record_figure(r)) continue;
    const std::string key = r.suite + " " + (r.name == "scaling" && !r.variant.empty() ? r.variant : r.name);
    if (!data.count(key)) order.push_back(key);
    data[key][r.bytes][*nodes] = &r;
  }
  std::vector<LineChart> charts;
  for (const auto& key : order) {
    // The largest size measured at two node counts or more.
    for (auto it = data.at(key).rbegin(); it != data.at(key).rend(); ++it) {
      if (it->second.size() < 2) continue;
      const Figure f0 = *record_figure(*it->second.begin()->second);
      LineChart c;
      c.title = key + (it->first > 0 ? " at " + format_bytes(it->first) : "") + ": " + metric_label(f0) + " vs node count";
      c.x_label = "nodes";
      c.integer_x = true;
      c.y_label = metric_label(f0) + " (" + f0.unit + ")";
      ChartSeries measured{"measured", {}, false, {}}, ceiling{"ceiling", {}, true, {}};
      for (const auto& [nodes, r] : it->second) {
        const auto f = record_figure(*r);
        if (f && f->unit == f0.unit) measured.points.emplace_back(nodes, f->value);
        const auto cv = ceiling_view(*r);
        if (cv.known && cv.unit == f0.unit) ceiling.points.emplace_back(nodes, cv.value);
      }
      c.series.push_back(std::move(measured));
      if (!ceiling.points.empty()) c.series.push_back(std::move(ceiling));
      charts.push_back(std::move(c));
      break;
    }
  }
  return charts;
}

std::vector<Heatmap> pair_heatmaps(const Report& rep) {
  std::map<std::string, std::vector<const Record*>> buckets;
  std::vector<std::string> order;
  for (const auto& r : rep.results) {
    if (!jsonx::string(r.extra, "src_host") || !jsonx::string(r.extra, "dst_host") || !record_figure(r)) continue;
    const std::string key = r.suite + " " + r.name;
    if (!buckets.count(key)) order.push_back(key);
    buckets[key].push_back(&r);
  }
  std::vector<Heatmap> out;
  for (const auto& key : order) {
    const auto& recs = buckets.at(key);
    std::set<std::string> hosts;
    for (const Record* r : recs) {
      hosts.insert(*jsonx::string(r->extra, "src_host"));
      hosts.insert(*jsonx::string(r->extra, "dst_host"));
    }
    if (hosts.size() > kMaxHeatmapHosts) continue;
    Heatmap h;
    h.labels.assign(hosts.begin(), hosts.end());
    const size_t n = h.labels.size();
    h.values.assign(n, std::vector<std::optional<double>>(n));
    h.fraction = h.values;
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < n; ++i) index[h.labels[i]] = i;
    double vmax = 0;
    for (const Record* r : recs) {  // a later record (a re-test) replaces an earlier one
      const auto f = record_figure(*r);
      const size_t i = index.at(*jsonx::string(r->extra, "src_host")), j = index.at(*jsonx::string(r->extra, "dst_host"));
      h.unit = f->unit;
      h.values[i][j] = r->status == Status::passed ? std::optional<double>(f->value) : std::nullopt;
      h.fraction[i][j] = ceiling_view(*r).efficiency;
      if (h.values[i][j]) vmax = std::max(vmax, f->value);
    }
    for (size_t i = 0; i < n; ++i)  // without a ceiling, colour by share of the best pair
      for (size_t j = 0; j < n; ++j)
        if (h.values[i][j] && !h.fraction[i][j] && vmax > 0) h.fraction[i][j] = *h.values[i][j] / vmax;
    h.title = key + ": " + metric_label(*record_figure(*recs.front())) + " per host pair";
    h.row_label = "from";
    h.col_label = "to";
    out.push_back(std::move(h));
  }
  return out;
}

std::vector<LineChart> timeline_charts(const Report& rep) {
  std::map<std::string, std::vector<const Record*>> buckets;
  std::vector<std::string> order;
  for (const auto& r : rep.results) {
    const auto* t = jsonx::array_at(r.extra, "timeline");
    if (!t || t->empty()) continue;
    const std::string key = r.suite + " " + r.name;
    if (!buckets.count(key)) order.push_back(key);
    buckets[key].push_back(&r);
  }
  std::vector<LineChart> out;
  for (const auto& key : order) {
    LineChart c;
    c.title = key + ": stability over time";
    c.x_label = "time since start";
    c.y_label = "goodput (Gb/s)";
    c.x_format = AxisFormat::seconds;
    std::vector<const Record*> shown;
    for (const Record* r : buckets.at(key)) {
      if (c.series.size() == kMaxSeriesPerChart) break;
      ChartSeries s{r->variant.empty() ? r->host : r->variant + " " + r->host, {}, false, {}};
      for (const auto& p : *jsonx::array_at(r->extra, "timeline")) {
        const auto t = jsonx::number(p, "t_s"), v = jsonx::number(p, "Gbps");
        if (t && v) s.points.emplace_back(*t, *v);
      }
      std::sort(s.points.begin(), s.points.end());
      if (s.points.empty()) continue;
      c.series.push_back(std::move(s));
      shown.push_back(r);
    }
    if (c.series.empty()) continue;
    c.ceilings = ceiling_lines(shown, "Gb/s");
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<CategoryMatrix> topology_charts(const Report& rep) {
  std::vector<CategoryMatrix> out;
  std::vector<int> same;
  for (auto& m : TopologyView(rep.topology).matrices()) {
    bool dup = false;
    for (size_t i = 0; i < out.size() && !dup; ++i)
      if (out[i].labels == m.labels && out[i].cells == m.cells) {
        ++same[i];
        dup = true;
      }
    if (dup) continue;
    out.push_back(CategoryMatrix{"topology of " + m.host, std::move(m.labels), std::move(m.cells)});
    same.push_back(0);
  }
  for (size_t i = 0; i < out.size(); ++i)
    if (same[i] > 0)
      out[i].title += " (and " + std::to_string(same[i]) + " identical node" + (same[i] == 1 ? "" : "s") + ")";
  return out;
}

}  // namespace gpunet::report
