// The fabric test's figures: one row per uplink, its oversubscription beside what crossed it and the
// sum of its nodes' link ceilings ("leaf1 ↔ spine: 1.98:1, 3.9 of 7.7 Gb/s").
#include "report/analysis/oversubscription.hpp"
#include "report/document/table_model.hpp"

namespace gpunet::report {

std::vector<Table> fabric_tables(const Report& rep, const TableRecords&) {
  Table t;
  t.kind = TableKind::fabric;
  t.title = "Uplink oversubscription";
  t.csv = "fabric.csv";
  t.note = "every node below a leaf sends across its uplink at once, both ways; oversubscription = the nodes' "
           "link ceilings summed / what crossed, in the worse direction (1.00 = non-blocking)";
  t.columns = {{"uplink", "", false},        {"oversubscription", ":1", true}, {"crossed", "Gb/s", true},
               {"nodes' sum", "Gb/s", true}, {"direction", "", false},        {"nodes", "", true},
               {"LinkSpeed", "", true},      {"reading", "", false}};
  t.columns[1].csv_key = "oversubscription";
  for (const auto& u : uplink_figures(rep)) {
    TableRow row;
    row.status = u.record->status;
    row.cells = {text_cell(u.leaf + " ↔ " + u.parent),
                 fixed_cell(u.o.ratio, 2),
                 figure_cell(u.o.measured_Gbps),
                 figure_cell(u.o.nodes_Gbps),
                 text_cell(u.o.up ? "leaving " + u.leaf : "entering " + u.leaf),
                 int_cell(static_cast<long long>(u.hosts.size())),
                 u.link_speed ? figure_cell(*u.link_speed) : text_cell(""),
                 wrap_cell(oversubscription_text(u.leaf, u.parent, u.o))};
    t.rows.push_back(std::move(row));
  }
  return {std::move(t)};
}

}  // namespace gpunet::report
