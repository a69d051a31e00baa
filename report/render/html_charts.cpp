#include "report/render/html_charts.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "report/analysis/ceilings.hpp"
#include "report/analysis/sections.hpp"
#include "report/model/stats.hpp"
#include "report/text/text_format.hpp"
#include "report/analysis/topology_view.hpp"

namespace gpunet::report {

namespace {

std::optional<int64_t> size_parameter(const Figure& f) {
  const auto it = f.parameters.find("bytes");
  if (it == f.parameters.end()) return std::nullopt;
  try {
    const long long b = std::stoll(it->second);
    return b > 0 ? std::optional<int64_t>(b) : std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool in_scaling_sweep(const Figure& f) { return f.subject.kind == SubjectKind::group && f.subject.group == "scaling"; }

std::string metric_words(const std::string& metric) {
  std::string s = metric;
  std::replace(s.begin(), s.end(), '.', ' ');
  return s;
}

// What tells one sweep of a metric from another: its subject and parameters other than the size.
std::string size_sweep_key(const Figure& f) {
  std::string k = subject_key(f.subject);
  for (const auto& [name, value] : f.parameters)
    if (name != "bytes") k += ";" + name + "=" + value;
  return k;
}

std::string sweep_label(const Figure& f) {
  std::vector<std::string> parts;
  auto param = [&](const char* name) {
    const auto it = f.parameters.find(name);
    return it == f.parameters.end() ? std::string() : it->second;
  };
  if (!param("variant").empty()) parts.push_back(param("variant"));
  if (!param("test").empty()) parts.push_back(param("test"));
  if (!param("dtype").empty()) parts.push_back(param("dtype") + (param("op").empty() ? "" : " " + param("op")));
  if (!param("ranks").empty() && param("ranks") != "0") parts.push_back(param("ranks") + " ranks");
  if (!param("memory").empty()) parts.push_back(param("memory") + " memory");
  if (!param("direction").empty()) parts.push_back(param("direction"));
  const Subject& s = f.subject;
  if (s.kind == SubjectKind::host) parts.push_back(s.host);
  if (s.kind == SubjectKind::gpu) parts.push_back(s.host + " GPU " + s.device);
  if (s.kind == SubjectKind::nic) parts.push_back(s.host + " " + s.device);
  if (s.kind == SubjectKind::pair) parts.push_back(s.host + " -> " + s.dst_host);
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out.empty() ? "measured" : out;
}

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

// Points at the same x (several records of one sweep at one size) become their median.
std::vector<std::pair<double, double>> by_x(const std::map<double, std::vector<double>>& values) {
  std::vector<std::pair<double, double>> out;
  for (const auto& [x, ys] : values) out.emplace_back(x, percentile(ys, 0.5));
  return out;
}

// The scaling sweep names its step in the variant ("scaling 3 node(s)", "scaling probe 2 node(s)",
// "... NCCL_ALGO=Ring"); what is left after the step tells one series from another.
std::string scaling_series(const Figure& f) {
  const auto it = f.parameters.find("variant");
  std::string v = it == f.parameters.end() ? "" : it->second;
  bool probe = false;
  if (v.rfind("scaling", 0) == 0) {
    v.erase(0, 7);
    if (v.rfind(" probe", 0) == 0) {
      probe = true;
      v.erase(0, 6);
    }
    const auto step = v.find("node(s)");
    if (step != std::string::npos) v.erase(0, step + 7);
  }
  while (!v.empty() && v.front() == ' ') v.erase(0, 1);
  const std::string what = probe ? "probe groups" : "measured";
  return v.empty() ? what : what + " (" + v + ")";
}

}  // namespace

Drawn<LineChart> size_charts(const Report& rep) {
  struct Sweep {
    std::string label;
    std::map<double, std::vector<double>> values;  // bytes -> figures
  };
  struct Metric {
    const Figure* first = nullptr;
    std::vector<std::string> order;
    std::map<std::string, Sweep> sweeps;
    std::vector<const Record*> records;
    std::set<int64_t> sizes;
  };
  std::vector<std::string> order;
  std::map<std::string, Metric> metrics;
  for (const auto& r : rep.results) {
    if (!r.figure || r.figure->better != Better::higher || in_scaling_sweep(*r.figure)) continue;
    const Figure& f = *r.figure;
    const auto bytes = size_parameter(f);
    if (!bytes) continue;  // not measured at a message size (a TCP flow: bytes received)
    const std::string key = f.metric + "|" + f.unit;
    auto [it, fresh] = metrics.try_emplace(key);
    if (fresh) order.push_back(key);
    Metric& m = it->second;
    if (!m.first) m.first = &f;
    m.records.push_back(&r);
    if (r.status != Status::passed) continue;
    const std::string sk = size_sweep_key(f);
    auto [s, new_sweep] = m.sweeps.try_emplace(sk, Sweep{sweep_label(f), {}});
    if (new_sweep) m.order.push_back(sk);
    s->second.values[static_cast<double>(*bytes)].push_back(f.value);
    m.sizes.insert(*bytes);
  }
  Drawn<LineChart> out;
  for (const auto& key : order) {
    const Metric& m = metrics.at(key);
    const std::string name = m.first->metric;
    if (m.sizes.size() < 2) {
      out.omitted.push_back(name + " vs message size: " +
                            (m.sizes.empty() ? std::string("no measurement passed")
                                             : "measured at one message size only (" + format_bytes(*m.sizes.begin()) + ")"));
      continue;
    }
    LineChart c;
    c.title = metric_words(name) + " vs message size";
    c.x_label = "message size (log scale)";
    c.y_label = metric_label(*m.first) + " (" + m.first->unit + ")";
    c.log2_x = true;
    c.x_format = AxisFormat::bytes;
    if (m.order.size() <= kMaxSeriesPerChart) {
      for (const auto& sk : m.order) {
        const Sweep& s = m.sweeps.at(sk);
        c.series.push_back(ChartSeries{s.label, by_x(s.values), false, {}});
      }
    } else {
      std::map<double, std::vector<double>> all;
      for (const auto& [sk, s] : m.sweeps)
        for (const auto& [x, ys] : s.values) all[x].insert(all[x].end(), ys.begin(), ys.end());
      ChartSeries s{"median of " + std::to_string(m.order.size()) + " sweeps (band: their minimum to maximum)", {}, false, {}};
      for (const auto& [x, ys] : all) {
        s.points.emplace_back(x, percentile(ys, 0.5));
        const auto [lo, hi] = std::minmax_element(ys.begin(), ys.end());
        s.band.emplace_back(*lo, *hi);
      }
      c.series.push_back(std::move(s));
    }
    c.ceilings = ceiling_lines(m.records, m.first->unit);
    out.charts.push_back(std::move(c));
  }
  return out;
}

Drawn<LineChart> scaling_charts(const Report& rep) {
  struct Curve {
    std::map<std::string, std::map<double, std::vector<double>>> series;  // label -> nodes -> figures
    std::vector<std::string> order;
    std::map<double, std::vector<double>> ceiling;  // nodes -> ceilings of the measured series
    const Figure* first = nullptr;
    int64_t bytes = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, Curve> curves;
  for (const auto& r : rep.results) {
    if (!r.figure || r.status != Status::passed || r.figure->better != Better::higher || !in_scaling_sweep(*r.figure) ||
        r.figure->subject.nodes <= 0)
      continue;
    const Figure& f = *r.figure;
    const int64_t bytes = size_parameter(f).value_or(0);
    const std::string key = f.metric + "|" + f.unit + "|" + std::to_string(bytes);
    auto [it, fresh] = curves.try_emplace(key);
    if (fresh) order.push_back(key);
    Curve& c = it->second;
    if (!c.first) {
      c.first = &f;
      c.bytes = bytes;
    }
    const std::string label = scaling_series(f);
    if (!c.series.count(label)) c.order.push_back(label);
    const double nodes = f.subject.nodes;
    c.series[label][nodes].push_back(f.value);
    const auto cv = ceiling_view(r);
    if (cv.known && cv.unit == f.unit && label.rfind("measured", 0) == 0) c.ceiling[nodes].push_back(cv.value);
  }
  Drawn<LineChart> out;
  for (const auto& key : order) {
    const Curve& c = curves.at(key);
    std::set<double> counts;
    for (const auto& [label, points] : c.series)
      for (const auto& [nodes, ys] : points) counts.insert(nodes);
    const std::string name = metric_words(c.first->metric) + (c.bytes > 0 ? " at " + format_bytes(c.bytes) : "");
    if (counts.size() < 2) {
      out.omitted.push_back(name + " vs node count: measured at one node count only");
      continue;
    }
    LineChart chart;
    chart.title = name + ": " + metric_label(*c.first) + " vs node count";
    chart.x_label = "nodes";
    chart.integer_x = true;
    chart.y_label = metric_label(*c.first) + " (" + c.first->unit + ")";
    for (const auto& label : c.order) chart.series.push_back(ChartSeries{label, by_x(c.series.at(label)), false, {}});
    if (!c.ceiling.empty()) chart.series.push_back(ChartSeries{"ceiling at each node count", by_x(c.ceiling), true, {}});
    out.charts.push_back(std::move(chart));
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
