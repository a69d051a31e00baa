// Records that measured no figure (topology, counters, findings, connections) and skips, each with
// what it says or why it did not run; and the figures of no other table kind.
#include "report/analysis/analysis.hpp"
#include "report/model/json_access.hpp"
#include "report/document/table_model.hpp"

namespace gpunet::report {

namespace {

std::string what_it_says(const Record& r) {
  if (!r.reason.empty()) return r.reason;
  if (auto s = jsonx::string(r.extra, "summary")) return *s;
  const RecordKind kind = record_kind(r);
  if (kind == RecordKind::topology_node || kind == RecordKind::topology_compare)
    return "topology recorded (see the topology section)";
  return "";
}

std::string subject_text(const Subject& s) {
  switch (s.kind) {
    case SubjectKind::cluster: return "cluster";
    case SubjectKind::host: return s.host;
    case SubjectKind::gpu: return s.host + " GPU " + s.device;
    case SubjectKind::nic: return s.host + " " + s.device;
    case SubjectKind::pair: return pair_label(s);
    case SubjectKind::group: return s.group + " at " + s.host;
  }
  return "";
}

}  // namespace

std::vector<Table> check_tables(const Report&, const TableRecords& records) {
  Table t;
  t.kind = TableKind::checks;
  t.title = "Checks and skips";
  t.csv = "checks.csv";
  t.columns = {{"suite", "", false}, {"name", "", false}, {"variant", "", false}, {"host", "", false},
               {"status", "", false}, {"what it says", "", false}};
  for (const Record* of_kind : records.of(TableKind::checks)) {
    const Record& r = *of_kind;
    TableRow row;
    row.status = r.status;
    row.cells = {text_cell(r.suite), text_cell(r.name), text_cell(r.variant), text_cell(r.host),
                 text_cell(to_string(r.status)), wrap_cell(what_it_says(r))};
    t.rows.push_back(std::move(row));
  }
  return {std::move(t)};
}

std::vector<Table> other_figure_tables(const Report&, const TableRecords& records) {
  Table t;
  t.kind = TableKind::other_figures;
  t.title = "Other figures";
  t.csv = "other_figures.csv";
  t.note = "figures of no table kind above, each with its own unit";
  t.columns = {{"suite", "", false},   {"metric", "", false},   {"subject", "", false},
               {"value", "", true},    {"unit", "", false},     {"ceiling", "", true},
               {"efficiency", "%", true}, {"status", "", false}};
  for (const Record* of_kind : records.of(TableKind::other_figures)) {
    const Record& r = *of_kind;
    if (!r.figure) continue;
    const auto c = ceiling_view(r);
    TableRow row;
    row.status = r.status;
    row.cells = {text_cell(r.suite),
                 text_cell(r.figure->metric),
                 text_cell(subject_text(r.figure->subject)),
                 r.status == Status::passed ? figure_cell(r.figure->value) : text_cell(""),
                 text_cell(r.figure->unit),
                 ceiling_cell(c),
                 efficiency_cell(c),
                 status_cell(r)};
    t.rows.push_back(std::move(row));
  }
  return {std::move(t)};
}

}  // namespace gpunet::report
