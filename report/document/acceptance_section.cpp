#include "report/document/acceptance_section.hpp"

#include "report/judge/verdicts_outputs.hpp"

namespace gpunet::report {

namespace {

TableRow comparison_row(const Comparison& r) {
  TableRow row;
  row.status = r.change == Change::slower ? Status::failed : r.change == Change::uncertain ? Status::skipped : Status::passed;
  for (auto& text : comparison_cells(r)) row.cells.push_back(text_cell(std::move(text)));
  if (r.change_pct) row.cells.at(3) = number_cell(*r.change_pct, row.cells.at(3).text);  // baseline.csv: the number
  row.cells.at(5).strong = true;  // the verdict
  row.cells.back().wrap = true;   // the reason
  return row;
}

}  // namespace

std::vector<DocSection> acceptance_sections(const Report& rep, const Judgement& j) {
  std::vector<DocSection> out;
  if (!j.verdicts.empty()) {
    DocSection s;
    s.title = "Acceptance: " + spec_title(rep);
    Table t = text_table("", {"Promise", "Verdict", "Measured", "Limit", "Reason"});
    for (const auto& v : j.verdicts) {
      const Status st = v.status == VerdictStatus::fail ? Status::failed : v.status == VerdictStatus::skip ? Status::skipped : Status::passed;
      TableRow& row = add_row(t, {v.promise, to_string(v.status), v.measured, v.limit, v.reason}, st);
      row.cells[1].strong = true;     // the verdict
      row.cells.back().wrap = true;   // the reason
    }
    s.tables.push_back(std::move(t));
    s.closing.push_back(verdicts_summary(j.verdicts));
    out.push_back(std::move(s));
  }
  if (j.comparison && !j.comparison->rows.empty()) {
    DocSection s;
    s.title = "Baseline: " + baseline_file(rep);
    Table t = text_table("", {"Figure", "Baseline", "Now", "Change", "Test", "Verdict", "Reason"});
    t.csv = "baseline.csv";
    const char* const keys[] = {"figure", "baseline", "now", "change_pct", "test", "verdict", "reason"};
    for (std::size_t c = 0; c < t.columns.size(); ++c) t.columns[c].csv_key = keys[c];
    const auto shown = comparison_rows_shown(*j.comparison);
    for (const std::size_t i : shown) t.rows.push_back(comparison_row(j.comparison->rows[i]));
    if (const auto left_out = comparison_rows_not_shown(*j.comparison, shown.size())) {
      // The rows' buffer, not the vector: the judgement may move with the document; its rows do not.
      const Comparison* rows = j.comparison->rows.data();
      t.every_row = {j.comparison->rows.size(), [rows](size_t i) { return comparison_row(rows[i]); }};
      t.not_shown = *left_out;
    }
    s.tables.push_back(std::move(t));
    s.closing.push_back(comparison_summary(*j.comparison));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace gpunet::report
