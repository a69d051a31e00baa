#include "report/document/acceptance_section.hpp"

#include "report/judge/verdicts_outputs.hpp"

namespace gpunet::report {

namespace {

Table judged_table(const std::vector<std::string>& headers) {
  Table t;
  t.kind = TableKind::text;
  for (const auto& h : headers) t.columns.emplace_back(h, "", false);
  return t;
}

TableRow judged_row(const std::vector<std::string>& texts, Status status) {
  TableRow row;
  row.status = status;
  for (const auto& text : texts) row.cells.push_back(text_cell(text));
  row.cells.back().wrap = true;  // the reason
  return row;
}

// The verdict column, in bold.
TableRow with_strong(TableRow row, size_t column) {
  row.cells.at(column).strong = true;
  return row;
}

}  // namespace

std::vector<DocSection> acceptance_sections(const Report& rep, const Judgement& j) {
  std::vector<DocSection> out;
  if (!j.verdicts.empty()) {
    DocSection s;
    s.title = "Acceptance: " + spec_title(rep);
    Table t = judged_table({"Promise", "Verdict", "Measured", "Limit", "Reason"});
    for (const auto& v : j.verdicts) {
      const Status st = v.status == VerdictStatus::fail ? Status::failed : v.status == VerdictStatus::skip ? Status::skipped : Status::passed;
      t.rows.push_back(with_strong(judged_row({v.promise, to_string(v.status), v.measured, v.limit, v.reason}, st), 1));
    }
    s.tables.push_back(std::move(t));
    s.closing.push_back(verdicts_summary(j.verdicts));
    out.push_back(std::move(s));
  }
  if (j.comparison && !j.comparison->rows.empty()) {
    DocSection s;
    s.title = "Baseline: " + baseline_file(rep);
    Table t = judged_table({"Figure", "Baseline", "Now", "Change", "Test", "Verdict", "Reason"});
    for (const auto& r : j.comparison->rows) {
      const Status st = r.change == Change::slower ? Status::failed : r.change == Change::uncertain ? Status::skipped : Status::passed;
      t.rows.push_back(with_strong(judged_row(comparison_cells(r), st), 5));
    }
    s.tables.push_back(std::move(t));
    s.closing.push_back(comparison_summary(*j.comparison));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace gpunet::report
