#include "report/document/acceptance_section.hpp"

#include "report/judge/verdicts_outputs.hpp"

namespace gpunet::report {

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
    for (const auto& r : j.comparison->rows) {
      const Status st = r.change == Change::slower ? Status::failed : r.change == Change::uncertain ? Status::skipped : Status::passed;
      TableRow& row = add_row(t, comparison_cells(r), st);
      row.cells.at(5).strong = true;  // the verdict
      row.cells.back().wrap = true;   // the reason
    }
    s.tables.push_back(std::move(t));
    s.closing.push_back(comparison_summary(*j.comparison));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace gpunet::report
