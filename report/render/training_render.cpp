#include "report/render/training_render.hpp"

#include <string>
#include <vector>

#include "report/document/document_section.hpp"
#include "report/render/section_render.hpp"

namespace gpunet::report::training {

LineChart waiting_chart(const TrainingResult& s) {
  LineChart c;
  c.title = "GPU waiting per step (fixed overlap model), workload " + s.link_speeds_workload;
  c.x_label = "nodes";
  c.y_label = "waiting, % of step";
  c.log2_x = true;
  c.integer_x = true;
  if (!s.available) return c;
  for (const auto& w : s.workloads) {
    if (w.name != s.link_speeds_workload) continue;
    ChartSeries measured{"this network (fitted)", {}, false, {}};
    for (const auto& r : w.rows) measured.points.emplace_back(r.step.nodes, 100 * r.step.wait_model);
    c.series.push_back(measured);
  }
  for (const auto& l : s.link_speeds) {
    ChartSeries series{l.name + " (estimate)", {}, true, {}};
    for (const auto& r : l.at_capped_efficiency.rows) series.points.emplace_back(r.nodes, 100 * r.wait_model);
    c.series.push_back(series);
  }
  return c;
}

std::string training_charts_html(const std::optional<TrainingResult>& answer) {
  if (!answer || !answer->available) return "";
  return "<div class=\"charts\">" + svg_line_chart(waiting_chart(*answer)) + "</div>";
}

std::string training_console(const std::optional<TrainingResult>& answer) {
  if (!answer) return "";
  // The console keeps the focus workload's table and the link speeds; report.md has every table.
  DocSection section = training_doc_section(answer);
  const std::string focus = "Workload " + answer->link_speeds_workload + ":";
  std::erase_if(section.tables, [&](const Table& t) { return t.title.rfind(focus, 0) != 0 && t.title.rfind("Estimates", 0) != 0; });
  return section_console(section);
}

}  // namespace gpunet::report::training
