// Host memory bandwidth: one table of kernel x threads per NUMA node (STREAM-like kernels).
#include "report/model/json_access.hpp"
#include "report/document/table_model.hpp"

namespace gpunet::report {

std::vector<Table> host_memory_tables(const Report&, const TableRecords& records) {
  Table t;
  t.kind = TableKind::host_memory;
  t.title = "Host memory bandwidth";
  t.csv = "host_memory.csv";
  t.note = "each byte read or written counted once; one pass of the thread team over the arrays per iteration";
  t.columns = {{"host", "", false},         {"NUMA node", "", true}, {"kernel", "", false},
               {"threads", "", true},       {"size", "B", true},     {"bandwidth", "GB/s", true},
               {"p50", "us", true},         {"CV", "%", true},       {"samples", "", true},
               {"check", "", false},        {"status", "", false}};
  for (const Record* of_kind : records.of(TableKind::host_memory)) {
    const Record& r = *of_kind;
    const bool ok = r.status == Status::passed;
    const auto numa = jsonx::integer(r.extra, "numa_node");
    TableRow row;
    row.status = r.status;
    row.cells = {text_cell(r.host),
                 text_cell(numa ? std::to_string(*numa) : ""),
                 text_cell(jsonx::string(r.extra, "kernel").value_or(r.name.substr(r.name.find('_') + 1))),
                 int_cell(jsonx::integer(r.extra, "threads").value_or(1)),
                 int_cell(r.bytes),
                 ok ? figure_cell(r.algbw_GBps) : text_cell(""),
                 ok ? fixed_cell(r.time_us.p50, 2) : text_cell(""),
                 ok ? percent_cell(r.time_us.cv) : text_cell(""),
                 int_cell(r.time_us.samples),
                 text_cell(r.check),
                 status_cell(r)};
    t.rows.push_back(std::move(row));
  }
  return {std::move(t)};
}

}  // namespace gpunet::report
