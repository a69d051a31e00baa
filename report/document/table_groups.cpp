// One-to-many and many-to-one: each flow and the aggregate of the test, against the shared end's
// ceiling (a flow's share of it; the whole link for the aggregate).
#include <algorithm>
#include <map>

#include "report/analysis/analysis.hpp"
#include "report/model/json_access.hpp"
#include "report/document/table_model.hpp"

namespace gpunet::report {

namespace {

Table group_table(const std::string& test, const std::vector<const Record*>& recs) {
  Table t;
  t.kind = TableKind::group_flows;
  t.title = "TCP " + test;
  t.csv = "tcp_groups.csv";
  t.note = test == "one-to-many" ? "one sender, every flow at once; a flow's ceiling is its share of the sender's link"
                                 : "one receiver, every flow at once; a flow's ceiling is its share of the receiver's link";
  t.columns = {{"test", "", false},         {"sender", "", false},       {"receiver", "", false}, {"streams", "", true},
               {"goodput", "Gb/s", true},   {"ceiling", "Gb/s", true}, {"efficiency", "%", true},
               {"received", "B", true},     {"status", "", false}};
  for (const Record* r : recs) {
    const bool aggregate = r->name == "aggregate";
    const auto* f = record_figure(*r);
    const auto c = ceiling_view(*r);
    std::string src = extra_string(*r, "src_host").value_or(""), dst = extra_string(*r, "dst_host").value_or(r->host);
    if (aggregate) {
      const std::string all = "all " + std::to_string(jsonx::integer(r->extra, "flows").value_or(0)) + " (aggregate)";
      src = test == "one-to-many" ? r->host : all;
      dst = test == "one-to-many" ? all : r->host;
    }
    TableRow row;
    row.status = r->status;
    row.cells = {text_cell(test),
                 text_cell(src),
                 text_cell(dst),
                 int_cell(extra_integer(*r, "streams").value_or(static_cast<int>(r->count))),
                 f && r->status == Status::passed ? figure_cell(f->value) : text_cell(""),
                 ceiling_cell(c),
                 efficiency_cell(c),
                 int_cell(r->bytes),
                 status_cell(*r)};
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

std::vector<Table> group_flow_tables(const Report&, const TableRecords& records) {
  std::vector<std::string> order{"one-to-many", "many-to-one"};
  std::map<std::string, std::vector<const Record*>> by_test;
  for (const Record* of_kind : records.of(TableKind::group_flows)) {
    const Record& r = *of_kind;
    if (std::find(order.begin(), order.end(), r.variant) == order.end()) order.push_back(r.variant);
    by_test[r.variant].push_back(&r);
  }
  std::vector<Table> out;
  for (const auto& test : order) out.push_back(group_table(test, by_test[test]));
  return out;
}

}  // namespace gpunet::report
