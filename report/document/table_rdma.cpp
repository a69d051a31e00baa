// RDMA WRITE bandwidth per pair and size, in perftest's ib_write_bw columns: BW peak, BW average
// (per direction, Gb/s) and MsgRate, beside the port's ceiling.
#include "report/analysis/analysis.hpp"
#include "report/model/json_access.hpp"
#include "report/document/table_model.hpp"

namespace gpunet::report {

std::vector<Table> rdma_bandwidth_tables(const Report&, const TableRecords& records) {
  Table t;
  t.kind = TableKind::rdma_bandwidth;
  t.title = "RDMA WRITE bandwidth";
  t.csv = "rdma_bandwidth.csv";
  t.note = "per direction, as perftest's ib_write_bw --report_gbits; MsgRate in millions of writes per second";
  t.columns = {{"pair", "", false},        {"memory", "", false},        {"direction", "", false},
               {"size", "B", true},        {"BW peak", "Gb/s", true},    {"BW average", "Gb/s", true},
               {"MsgRate", "Mpps", true},  {"ceiling", "Gb/s", true},    {"efficiency", "%", true},
               {"#wrong", "", true},       {"status", "", false}};
  for (const Record* of_kind : records.of(TableKind::rdma_bandwidth)) {
    const Record& r = *of_kind;
    const bool ok = r.status == Status::passed;
    const auto* f = record_figure(r);
    const auto c = ceiling_view(r);
    std::string pair = r.host + " " + r.variant;
    if (r.figure && r.figure->subject.kind == SubjectKind::pair) pair = pair_label(r.figure->subject);
    const double avg = f ? f->value : jsonx::number(r.extra, "bw_Gbps").value_or(0);
    TableRow row;
    row.status = r.status;
    row.cells = {text_cell(pair),
                 text_cell(jsonx::string(r.extra, "memory").value_or("")),
                 text_cell(r.name == "write_bw_bidir" ? "bidirectional" : "unidirectional"),
                 int_cell(r.bytes),
                 ok && jsonx::number(r.extra, "bw_peak_Gbps") ? figure_cell(*jsonx::number(r.extra, "bw_peak_Gbps")) : text_cell(""),
                 ok ? figure_cell(avg) : text_cell(""),
                 ok && r.bytes > 0 ? fixed_cell(avg * 1e9 / 8 / static_cast<double>(r.bytes) / 1e6, 3) : text_cell(""),
                 ceiling_cell(c),
                 efficiency_cell(c),
                 text_cell(r.check == "off" ? "N/A" : std::to_string(r.wrong)),
                 status_cell(r)};
    t.rows.push_back(std::move(row));
  }
  return {std::move(t)};
}

}  // namespace gpunet::report
