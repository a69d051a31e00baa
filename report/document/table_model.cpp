#include "report/document/table_model.hpp"

#include <algorithm>

#include "report/analysis/analysis.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

std::string to_string(TableKind k) {
  switch (k) {
    case TableKind::summary: return "summary";
    case TableKind::collective: return "collective";
    case TableKind::pair_matrix: return "pair_matrix";
    case TableKind::flows: return "flows";
    case TableKind::group_flows: return "group_flows";
    case TableKind::latency: return "latency";
    case TableKind::congestion: return "congestion";
    case TableKind::rdma_bandwidth: return "rdma_bandwidth";
    case TableKind::pcie: return "pcie";
    case TableKind::host_memory: return "host_memory";
    case TableKind::fabric: return "fabric";
    case TableKind::other_figures: return "other_figures";
    case TableKind::checks: return "checks";
    case TableKind::text: return "text";
  }
  return "other_figures";
}

std::string section_title(TableKind k) {
  switch (k) {
    case TableKind::collective: return "Collective sweeps";
    case TableKind::pair_matrix:
    case TableKind::flows:
    case TableKind::group_flows: return "Pairs and flows";
    case TableKind::latency: return "Latency";
    case TableKind::congestion: return "Congestion impact";
    case TableKind::rdma_bandwidth: return "RDMA bandwidth";
    case TableKind::pcie: return "PCIe";
    case TableKind::host_memory: return "Host memory";
    case TableKind::fabric: return "Fabric";
    case TableKind::other_figures: return "Other suites";
    case TableKind::checks: return "Checks and skips";
    case TableKind::summary: return "Summary";
    case TableKind::text: return "";
  }
  return "Other suites";
}

std::string Column::header() const { return unit.empty() ? name : name + " (" + unit + ")"; }

std::string Column::key() const {
  if (!csv_key.empty()) return csv_key;
  std::string k;
  for (char c : unit.empty() ? name : name + " " + unit) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (c == '%') k += "pct";
    else if (word) k += c;
    else if (!k.empty() && k.back() != '_') k += '_';
  }
  while (!k.empty() && k.back() == '_') k.pop_back();
  return k;
}

bool has_rows(const Table& t) { return row_count(t) > 0; }
bool shows_anything(const Table& t) { return has_rows(t) || !t.bullets.empty(); }

size_t row_count(const Table& t) { return t.every_row.count > 0 ? t.every_row.count : t.rows.size(); }

void for_each_row(const Table& t, size_t begin, size_t end, const RowSink& sink) {
  end = std::min(end, row_count(t));
  if (t.every_row.count > 0) {
    for (size_t i = begin; i < end; ++i) sink(t.every_row.row(i));
  } else {
    for (size_t i = begin; i < end; ++i) sink(t.rows[i]);
  }
}

Cell text_cell(std::string text) {
  Cell c;
  c.text = std::move(text);
  return c;
}
Cell wrap_cell(std::string text) {
  Cell c = text_cell(std::move(text));
  c.wrap = true;
  return c;
}
Cell int_cell(long long v) { return text_cell(std::to_string(v)); }

Cell number_cell(double v, std::string text) {
  Cell c = text_cell(std::move(text));
  c.raw = format_general(v, 9);
  return c;
}

Cell figure_cell(double v) { return number_cell(v, format_figure(v)); }
Cell fixed_cell(double v, int decimals) { return number_cell(v, format_fixed(v, decimals)); }
Cell percent_cell(double fraction) { return number_cell(fraction * 100, format_fixed(fraction * 100, 1)); }

Cell ceiling_cell(const CeilingView& c) {
  if (!c.known) return text_cell("");
  Cell cell = figure_cell(c.value);
  cell.derivation = std::string(c.derivation);
  return cell;
}

Cell efficiency_cell(const CeilingView& c) {
  if (!c.efficiency) return text_cell("");
  Cell cell = percent_cell(*c.efficiency);
  cell.efficiency = c.efficiency;
  return cell;
}

const char* efficiency_tone(const Cell& c, double threshold) {
  if (c.flagged || (c.efficiency && *c.efficiency < threshold)) return "low";
  if (c.efficiency && *c.efficiency > kOverCeiling) return "above";
  return "ok";
}

Cell status_cell(const Record& r) {
  return wrap_cell(to_string(r.status) + (r.reason.empty() ? "" : ": " + r.reason));
}

std::string pair_label(const Subject& s, const std::string& arrow) {
  auto end = [](const std::string& host, int rank) { return rank >= 0 ? host + ":" + std::to_string(rank) : host; };
  if (!s.iface.empty()) return s.host + ":" + s.iface + " " + arrow + " " + s.dst_host + ":" + s.dst_iface;  // a rail
  if (s.dst_host.empty() && s.dst_rank < 0) return end(s.host, s.rank);
  return end(s.host, s.rank) + " " + arrow + " " + end(s.dst_host, s.dst_rank);
}

namespace {

bool starts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool ends(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// By the figure's metric and subject, as every output reads figures.
TableKind figure_table_kind(const Record& r, const Figure& f) {
  const std::string& m = f.metric;
  if ((starts(m, "mpi.") || starts(m, "nccl.")) && ends(m, ".busbw") && r.bytes > 0) return TableKind::collective;
  if (m == "tcp.goodput") {
    const auto test = f.parameters.find("test");
    const bool group = f.subject.kind == SubjectKind::group ||
                       (test != f.parameters.end() && (test->second == "one-to-many" || test->second == "many-to-one"));
    if (group) return TableKind::group_flows;
    return f.subject.kind == SubjectKind::pair ? TableKind::flows : TableKind::other_figures;
  }
  if (starts(m, "congestion.")) return TableKind::congestion;
  if (m == "tcp.latency" || (starts(m, "rdma.") && ends(m, "latency"))) return TableKind::latency;
  if (starts(m, "rdma.") && ends(m, ".bw")) return TableKind::rdma_bandwidth;
  if (starts(m, "pcie.") || starts(m, "node.pcie.")) return TableKind::pcie;
  if (starts(m, "node.membw.")) return TableKind::host_memory;
  if (starts(m, "fabric.")) return TableKind::fabric;
  return TableKind::other_figures;
}

}  // namespace

TableKind record_table_kind(const Record& r) {
  if (r.status == Status::skipped) return TableKind::checks;
  const RecordKind kind = record_kind(r);
  if (kind == RecordKind::collective_point) return TableKind::collective;  // a sweep's point, measured or not
  if (r.figure) return figure_table_kind(r, *r.figure);
  switch (kind) {
    case RecordKind::tcp_latency:
    case RecordKind::rdma_latency: return TableKind::latency;
    case RecordKind::tcp_congestion: return TableKind::congestion;
    case RecordKind::tcp_group: return TableKind::group_flows;
    case RecordKind::tcp_flow:
      return r.variant == "one-to-many" || r.variant == "many-to-one" ? TableKind::group_flows : TableKind::flows;
    case RecordKind::tcp_matrix: return TableKind::pair_matrix;
    case RecordKind::rdma_bandwidth: return TableKind::rdma_bandwidth;
    case RecordKind::pcie_copy: return TableKind::pcie;
    case RecordKind::host_memory: return TableKind::host_memory;
    default: return TableKind::checks;
  }
}

TableRecords::TableRecords(const Report& rep) : by_kind_(static_cast<size_t>(TableKind::text) + 1) {
  for (const auto& r : rep.results) by_kind_[static_cast<size_t>(record_table_kind(r))].push_back(&r);
}

std::vector<Table> report_tables(const Report& rep, const TableRecords& records, const BlamedPairs& blamed) {
  std::vector<Table> out;
  const auto add = [&](std::vector<Table> tables) {
    for (auto& t : tables) out.push_back(std::move(t));
  };
  add(collective_tables(rep, records));
  add(pair_tables(rep, records, blamed));
  for (const TableBuilder build : {group_flow_tables, latency_tables, congestion_tables, rdma_bandwidth_tables, pcie_tables,
                                   host_memory_tables, fabric_tables, other_figure_tables, check_tables})
    add(build(rep, records));
  return out;
}

std::vector<Table> report_tables(const Report& rep, const BlamedPairs& blamed) {
  return report_tables(rep, TableRecords(rep), blamed);
}

}  // namespace gpunet::report
