// The table model every report table is rendered from: a table is a kind, a title, columns that name
// their unit, and rows of cells. One builder per kind (report/document/table_*.cpp) reads the analysed records;
// the console, report.md, report.html and the CSV files render the same tables. Each record belongs
// to exactly one kind (record_table_kind), so no record is forced into columns that do not apply to
// it. Pure.
//
// Adding a table for a new test or metric (a fabric table, a congestion table):
//   1. the suite states what its records are: a RecordKind value (report/model/record.hpp) returned by its
//      Suite::record_kind for those records, and the figure's metric (`tcp.fabric.uplink`, ...);
//   2. a TableKind value below, with its section title (section_title) and name (to_string);
//   3. record_table_kind: the figure's metric (figure_table_kind) or, for records without a figure, the
//      RecordKind, to the new TableKind; never the suite's name (tests/layering_test.sh checks it);
//   4. one builder, report/table_<kind>.cpp, that takes the records of that kind, and its line in
//      report_tables() below (the renderers, the CSV files and the console take every table from there);
//   5. a test in tests/report/render/test_tables.cpp on a record of that kind.
// A table that is no record's kind (a view over several kinds) skips 1-3.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "report/model/record.hpp"
#include "report/analysis/sections.hpp"
#include "report/judge/culprits.hpp"

namespace gpunet::report {

enum class TableKind {
  summary,         // the verdict's headline figures, by path
  collective,      // MPI / NCCL size sweeps, nccl-tests' layout
  pair_matrix,     // TCP / RDMA matrix flows: rows send, columns receive
  flows,           // TCP flows: sender -> receiver, test, streams, goodput, ...
  group_flows,     // one-to-many / many-to-one: each flow and the aggregate, against the shared end
  latency,         // TCP / RDMA ping-pong percentiles
  congestion,      // TCP congestion impact: victims isolated and congested, their CIF
  rdma_bandwidth,  // RDMA WRITE bandwidth, perftest's columns
  pcie,            // host<->device copies per GPU
  host_memory,     // kernel x threads per NUMA node
  fabric,          // the tcp fabric test: each uplink's oversubscription (report/analysis/oversubscription.hpp)
  other_figures,   // figures of no kind above: metric, subject, value, unit, ceiling
  checks,          // records that measured nothing: checks, counters, skips, with their reasons
  text,            // a section's own table of words (report/document/document_section.hpp), under no table section
};
std::string to_string(TableKind k);
// The report section a kind is shown under ("Pairs and flows").
std::string section_title(TableKind k);

struct Column {
  Column(std::string n, std::string u = "", bool num = false) : name(std::move(n)), unit(std::move(u)), number(num) {}
  std::string name;     // "goodput"
  std::string unit;     // "Gb/s"; empty for text and counts
  bool number = false;  // right-aligned
  std::string csv_key;  // the CSV header when it differs from key()
  std::string header() const;  // "goodput (Gb/s)"
  std::string key() const;     // "goodput_Gb_s": the CSV header
};

struct Cell {
  std::string text;        // as shown
  std::string raw;         // for CSV (full precision); empty: the text
  std::string derivation;  // a ceiling cell: how it is derived (md cites it, HTML shows it on hover)
  int cite = 0;            // the derivation's number in the documents' Ceilings (ceiling_citations.hpp); 0: none
  std::optional<double> efficiency;  // an efficiency cell: HTML colours it against the threshold
  bool flagged = false;    // a finding names its path slow: HTML colours it low, whatever the efficiency
  bool wrap = false;       // long text: HTML lets it wrap
  bool strong = false;     // a verdict: bold in report.md and report.html
};

struct TableRow {
  std::vector<Cell> cells;
  Status status = Status::passed;
};

using RowSink = std::function<void(const TableRow&)>;

// Rows made on demand by their place, the i-th of `count`: a CSV's rows of a table whose documents
// show only some (a million flows at 1,024 hosts). Safe to call from several threads at once.
struct RowSource {
  size_t count = 0;
  std::function<TableRow(size_t)> row;
};

struct Table {
  TableKind kind = TableKind::other_figures;
  std::string title;
  std::string csv;                   // the CSV file its rows go to ("tcp_flows.csv"); empty: none (the summary;
                                     // collective sweeps go to sweeps.csv, which keeps its own columns)
  std::string note;                  // one line under the title (what the numbers are)
  std::vector<Column> columns;
  std::vector<TableRow> rows;        // the rows documents (md, html, console) show, in order
  std::vector<std::string> footer;   // preformatted lines after the table (nccl-tests' footer)
  std::vector<std::string> bullets;  // items after the table (the summary's topology findings)
  // Where documents show only some rows (a large run's flows, a matrix too wide for a page): every
  // row, made as the CSV is written, so that a million flows are never held as cells; `not_shown`
  // says what the documents left out. Count 0: `rows` are every row. It reads the records the table
  // was built from: the report outlives the table.
  RowSource every_row;
  std::string not_shown;
};

bool has_rows(const Table& t);                           // rows to show, or rows only the CSV holds
bool shows_anything(const Table& t);                     // rows or bullets: the documents show it
size_t row_count(const Table& t);                        // every row, as the CSV holds them
// Rows [begin, end) of every row, in order.
void for_each_row(const Table& t, size_t begin, size_t end, const RowSink& sink);

// Cell constructors.
Cell text_cell(std::string text);
Cell wrap_cell(std::string text);
Cell int_cell(long long v);
Cell number_cell(double v, std::string text);  // raw = v at full precision
Cell figure_cell(double v);                     // format_figure
Cell fixed_cell(double v, int decimals);
Cell percent_cell(double fraction);             // "87.3", raw = 87.3...: the column says %
Cell ceiling_cell(const CeilingView& c);        // value, with its derivation; blank when unknown
Cell efficiency_cell(const CeilingView& c);     // percent of the ceiling; blank when unknown
// How an efficiency cell is coloured: "low" (below the threshold, or named slow by a finding, whatever
// its efficiency), "above" (above its ceiling beyond noise, kOverCeiling: a ceiling to explain, never
// green) or "ok".
const char* efficiency_tone(const Cell& c, double threshold);
Cell status_cell(const Record& r);              // "passed", or "failed: why"

// "a:0 -> b:1" (the rank left out where it is not known, the destination where there is none).
std::string pair_label(const Subject& s, const std::string& arrow = "->");

// The kind a record's table is; every record has exactly one: by its figure's metric and subject,
// else (records without a figure) by suite and name.
TableKind record_table_kind(const Record& r);

// The flows of the all-pairs matrix (the figure's test parameter "matrix"), and the RDMA records that
// are a matrix's headline cells (write_bw, named by their hosts: extra.src_host): the summary and the
// pair tables pick them alike.
bool matrix_flow(const Record& r);
bool rdma_matrix_headline(const Record& r);

// The records of each table kind, in the report's order: each record's kind worked out once for
// every builder (a million records at 1,024 hosts). Holds pointers into the report.
class TableRecords {
 public:
  explicit TableRecords(const Report& rep);
  explicit TableRecords(Report&&) = delete;  // so a temporary cannot be indexed
  const std::vector<const Record*>& of(TableKind k) const { return by_kind_[static_cast<size_t>(k)]; }

 private:
  std::vector<std::vector<const Record*>> by_kind_;
};

// The builders (report/document/table_*.cpp). Each returns its tables even when no record is of its kind (the
// CSV files are always written; the other renderers leave a table without rows out).
// The summary and the pair tables colour what "What is wrong" blames (report/judge/culprits.hpp);
// the forms without `blamed` work it out themselves.
Table summary_table(const Report& rep);
Table summary_table(const Report& rep, const TableRecords& records, const BlamedPairs& blamed);
using TableBuilder = std::vector<Table> (*)(const Report& rep, const TableRecords& records);
std::vector<Table> collective_tables(const Report& rep, const TableRecords& records);
std::vector<Table> pair_tables(const Report& rep, const TableRecords& records, const BlamedPairs& blamed);  // matrices and flows (TCP, RDMA)
std::vector<Table> group_flow_tables(const Report& rep, const TableRecords& records);
std::vector<Table> latency_tables(const Report& rep, const TableRecords& records);
std::vector<Table> congestion_tables(const Report& rep, const TableRecords& records);  // report/document/table_congestion.cpp
std::vector<Table> rdma_bandwidth_tables(const Report& rep, const TableRecords& records);
std::vector<Table> pcie_tables(const Report& rep, const TableRecords& records);
std::vector<Table> host_memory_tables(const Report& rep, const TableRecords& records);
std::vector<Table> fabric_tables(const Report& rep, const TableRecords& records);
std::vector<Table> other_figure_tables(const Report& rep, const TableRecords& records);
std::vector<Table> check_tables(const Report& rep, const TableRecords& records);

// Every table after the summary (which the renderers place themselves) in reading order: one kind
// after another, the checks last.
std::vector<Table> report_tables(const Report& rep, const TableRecords& records, const BlamedPairs& blamed);
std::vector<Table> report_tables(const Report& rep, const BlamedPairs& blamed);

// nccl-tests' footer of a set of sweep records: "# Out of bounds values : 0 OK" and
// "# Avg bus bandwidth    : 1.234 " (GB/s, the mean over every measured size, failed checks included),
// as nccl-tests prints them. The console after a sweep suite and every report print this one.
std::vector<std::string> collective_footer(const std::vector<const Record*>& rows);

}  // namespace gpunet::report
