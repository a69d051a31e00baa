#include "report/render/training_render.hpp"

#include <algorithm>

#include "report/text/escape.hpp"
#include "report/render/md_table.hpp"
#include "report/training/training_tables.hpp"

namespace gpunet::report::training {

using nlohmann::json;

namespace {

const json* section_of(const Report& rep) {
  if (!rep.extra.is_object() || !rep.extra.contains("training")) return nullptr;
  return &rep.extra["training"];
}

std::string md_table(const TextTable& t, bool escape = true) {
  auto cell = [&](const std::string& c) { return escape ? md_escape(c) : c; };
  std::vector<MdTable::Align> align(t.headers.size(), MdTable::Align::right);
  if (!align.empty()) align[0] = MdTable::Align::left;
  std::vector<std::string> headers;
  for (const auto& h : t.headers) headers.push_back(cell(h));
  MdTable table(headers, align);
  for (const auto& r : t.rows) {
    std::vector<std::string> cells;
    for (const auto& c : r) cells.push_back(cell(c));
    table.add_row(cells);
  }
  return table.render();
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
  const SectionText t = section_text(*s);
  std::string out = "# Training impact\n# " + t.headline + "\n";
  for (const auto& n : t.notes) out += "#   " + n + "\n";
  // The console keeps the focus workload's table and the link speeds; report.md has every table.
  for (const auto& table : t.tables)
    if (table.title.find("Workload " + s->value("link_speeds_workload", std::string()) + ":") == 0 ||
        table.title.rfind("Estimates", 0) == 0)
      out += "# " + table.title + "\n" + md_table(table, false);
  return out;
}

}  // namespace gpunet::report::training
