// Congestion impact: each victim's isolated and congested figures and their CIF per measure, then
// per measure the mean over the victims and the worst victim (report/analysis/congestion.hpp).
#include "report/analysis/congestion.hpp"
#include "report/document/table_model.hpp"

namespace gpunet::report {

namespace {

Cell raw_cell(double v, const std::string& unit) { return unit == "us" ? fixed_cell(v, 2) : figure_cell(v); }

TableRow congestion_row(const CongestionFigure& c, const CongestionMeasure& m) {
  TableRow row;
  row.status = c.record->status;
  const bool ok = c.record->status == Status::passed;
  row.cells = {text_cell(c.overall ? "all victims (mean)" : c.victim),
               text_cell(m.label),
               ok ? raw_cell(c.isolated, c.unit) : text_cell(""),
               ok ? raw_cell(c.congested, c.unit) : text_cell(""),
               text_cell(c.unit),
               c.cif ? fixed_cell(*c.cif, 2) : text_cell(""),
               status_cell(*c.record)};
  return row;
}

TableRow worst_row(const CongestionFigure& c, const CongestionMeasure& m) {
  TableRow row;
  row.status = c.record->status;
  row.cells = {text_cell("worst: " + c.worst_victim), text_cell(m.label), text_cell(""), text_cell(""),
               text_cell(c.unit), fixed_cell(c.worst, 2), status_cell(*c.record)};
  return row;
}

}  // namespace

std::vector<Table> congestion_tables(const Report& rep, const TableRecords&) {
  Table t;
  t.kind = TableKind::congestion;
  t.title = "Congestion impact";
  t.csv = "tcp_congestion.csv";
  t.note = "each victim pair alone (isolated) and while the other nodes run incast and all-to-all flows (congested); "
           "CIF: congested / isolated for latency, isolated / congested for bandwidth (1 = no impact, higher is worse)";
  t.columns = {{"victim", "", false},   {"measure", "", false}, {"isolated", "", true}, {"congested", "", true},
               {"unit", "", false},     {"CIF", "", true},      {"status", "", false}};
  const auto figures = congestion_figures(rep);
  for (const auto& m : congestion_measures()) {
    for (const auto& c : figures)
      if (c.measure == m.key && !c.overall) t.rows.push_back(congestion_row(c, m));
    for (const auto& c : figures)
      if (c.measure == m.key && c.overall) {
        t.rows.push_back(congestion_row(c, m));
        if (c.cif && !c.worst_victim.empty()) t.rows.push_back(worst_row(c, m));
      }
  }
  return {t};
}

}  // namespace gpunet::report
