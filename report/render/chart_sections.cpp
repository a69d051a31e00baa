#include "report/render/chart_sections.hpp"

#include "report/render/chart_pairs.hpp"
#include "report/render/chart_timeline.hpp"
#include "report/render/html_charts.hpp"
#include "report/render/svg_chart.hpp"
#include "report/render/svg_fabric.hpp"
#include "report/text/escape.hpp"

namespace gpunet::report {

namespace {

std::string row(const std::vector<std::string>& svgs, const char* extra_class = "") {
  std::string r;
  for (const auto& s : svgs) r += s;
  return r.empty() ? r : "<div class=\"charts" + std::string(extra_class) + "\">" + r + "</div>";
}

std::string note(const std::string& text) { return "<p class=\"chart-note\">" + html_escape(text) + "</p>"; }

}  // namespace

ChartSections chart_sections(const Report& rep, const BlamedPairs& blamed, const LinkLocation& location) {
  ChartSections out;
  auto add = [&](const char* id, const char* title, std::string html, size_t drawings) {
    if (drawings) out.sections.push_back({id, title, std::move(html), drawings});
  };
  auto keep_omitted = [&](const std::vector<std::string>& lines) {
    out.omitted.insert(out.omitted.end(), lines.begin(), lines.end());
  };
  auto lines = [&](const char* id, const char* title, const Drawn<LineChart>& d) {
    std::vector<std::string> v;
    for (const auto& c : d.charts) v.push_back(svg_line_chart(c));
    keep_omitted(d.omitted);
    add(id, title, row(v), v.size());
  };
  lines("chart-sizes", "Bandwidth vs message size", size_charts(rep));
  lines("chart-scaling", "Scaling with node count", scaling_charts(rep));
  const auto pairs = pair_heatmaps(rep, blamed);
  std::vector<std::string> v;
  for (const auto& h : pairs.charts) v.push_back(svg_heatmap(h));
  keep_omitted(pairs.omitted);
  add("pair-matrix", "Host pair matrix", row(v), v.size());
  if (const auto fabric = fabric_drawing(rep, location)) add("fabric-picture", "The fabric", row({svg_fabric(*fabric)}), 1);
  const auto timelines = timeline_charts(rep);
  std::string groups;
  size_t panels = 0;
  for (const auto& g : timelines.groups) {
    v.clear();
    for (const auto& p : g.panels) v.push_back(svg_timeline_panel(p));
    panels += v.size();
    groups += "<h4>" + html_escape(g.title) + "</h4>" + row(v, " small") + (g.note.empty() ? "" : note(g.note));
  }
  keep_omitted(timelines.omitted);
  add("timeline", "Stability timeline", groups.empty() ? groups : note(timelines.legend) + groups, groups.empty() ? 0 : panels);
  v.clear();
  for (const auto& m : topology_charts(rep)) v.push_back(svg_category_matrix(m));
  add("chart-paths", "GPU and NIC path classes", row(v), v.size());
  return out;
}

}  // namespace gpunet::report
