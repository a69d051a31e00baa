#include "report/render/training_render.hpp"

#include <string>
#include <vector>

#include "report/document/document_section.hpp"
#include "report/render/section_render.hpp"

namespace gpunet::report::training {

using nlohmann::json;

namespace {

const json* section_of(const Report& rep) {
  if (!rep.extra.is_object() || !rep.extra.contains("training")) return nullptr;
  return &rep.extra["training"];
}

}  // namespace

LineChart waiting_chart(const json& s) {
  LineChart c;
  c.title = "GPU waiting per step (fixed overlap model), workload " + s.value("link_speeds_workload", std::string());
  c.x_label = "nodes";
  c.y_label = "waiting, % of step";
  c.log2_x = true;
  c.integer_x = true;
  if (!s.value("available", false)) return c;
  for (const auto& w : s["workloads"]) {
    if (w.value("name", std::string()) != s.value("link_speeds_workload", std::string())) continue;
    ChartSeries measured{"this network (fitted)", {}, false, {}};
    for (const auto& r : w["rows"]) measured.points.emplace_back(r.value("nodes", 0), 100 * r.value("wait_model", 0.0));
    c.series.push_back(measured);
  }
  for (const auto& l : s["link_speeds"]) {
    ChartSeries series{l.value("name", std::string()) + " (estimate)", {}, true, {}};
    for (const auto& r : l["at_capped_efficiency"]["rows"])
      series.points.emplace_back(r.value("nodes", 0), 100 * r.value("wait_model", 0.0));
    c.series.push_back(series);
  }
  return c;
}

std::string training_charts_html(const Report& rep) {
  const json* s = section_of(rep);
  if (!s || !s->value("available", false)) return "";
  return "<div class=\"charts\">" + svg_line_chart(waiting_chart(*s)) + "</div>";
}

std::string training_console(const Report& rep) {
  const json* s = section_of(rep);
  if (!s) return "";
  // The console keeps the focus workload's table and the link speeds; report.md has every table.
  DocSection section = training_doc_section(rep);
  const std::string focus = "Workload " + s->value("link_speeds_workload", std::string()) + ":";
  std::erase_if(section.tables, [&](const Table& t) { return t.title.rfind(focus, 0) != 0 && t.title.rfind("Estimates", 0) != 0; });
  return section_console(section);
}

}  // namespace gpunet::report::training
