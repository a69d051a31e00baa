// The summary table: the headline figures, each with its ceiling and efficiency, grouped by path
// (between nodes: TCP, RDMA, collectives; inside a node: PCIe per GPU, host memory, collectives and
// loopback on one node, and NVLink, which no suite measures: report/analysis/summary_nvlink.hpp), and the
// topology findings below it.
#include <algorithm>
#include <cctype>
#include <map>

#include "report/analysis/analysis.hpp"
#include "report/analysis/direction.hpp"
#include "report/analysis/summary_nvlink.hpp"
#include "report/document/table_model.hpp"
#include "report/judge/culprits.hpp"
#include "report/model/json_access.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

namespace {

constexpr const char* kBetween = "between nodes";
constexpr const char* kInside = "inside a node";

struct Row {
  std::string path, figure, subject;
  const Record* record = nullptr;
  double value = 0;
  std::string unit;
  bool failed = false;  // the record failed or timed out: no value to show as the state of the path
};

std::string pair_text(const Subject& s) { return pair_label(s); }

bool same_host(const Record& r) {
  return r.figure && r.figure->subject.kind == SubjectKind::pair && r.figure->subject.host == r.figure->subject.dst_host;
}

const char* pair_path(const Record& r) { return same_host(r) ? kInside : kBetween; }

// The slowest and the median of a set of pair figures. A pair that failed or timed out is the
// slowest: a figure measured before the failure is not the state of the link.
void slowest_and_median(const std::vector<const Record*>& recs, const std::string& what, std::vector<Row>& out) {
  std::vector<const Record*> v;
  const Record* broken = nullptr;
  for (const Record* r : recs) {
    if (r->status == Status::passed && r->figure) v.push_back(r);
    if (!broken && r->figure && (r->status == Status::failed || r->status == Status::timed_out)) broken = r;
  }
  if (broken)
    out.push_back({pair_path(*broken), what + ", slowest pair", pair_text(broken->figure->subject), broken, 0,
                   broken->figure->unit, true});
  if (v.empty()) return;
  const bool lower_better = v.front()->figure->better == Better::lower;
  std::sort(v.begin(), v.end(), [&](const Record* a, const Record* b) {
    return lower_better ? a->figure->value > b->figure->value : a->figure->value < b->figure->value;
  });
  const Record* worst = v.front();
  if (!broken)
    out.push_back({pair_path(*worst), what + ", slowest pair", pair_text(worst->figure->subject), worst, worst->figure->value, worst->figure->unit});
  if (v.size() > 2) {
    const Record* mid = v[v.size() / 2];
    out.push_back({pair_path(*mid), what + ", median of " + std::to_string(v.size()), pair_text(mid->figure->subject), mid,
                   mid->figure->value, mid->figure->unit});
  }
}

// slowest_and_median of each rail's figures in a run on several rails (the figure's "rail"
// parameter: "TCP latency p50 (rail 1 eth1)"), else of them all.
void per_rail(const std::vector<const Record*>& recs, const std::string& what, std::vector<Row>& out) {
  std::map<std::string, std::vector<const Record*>> by_rail;
  for (const Record* r : recs) {
    const auto* params = r->figure ? &r->figure->parameters : nullptr;
    const auto it = params ? params->find("rail") : std::map<std::string, std::string>::const_iterator{};
    by_rail[params && it != params->end() ? it->second : ""].push_back(r);
  }
  if (by_rail.empty() || (by_rail.size() == 1 && by_rail.count(""))) return slowest_and_median(recs, what, out);
  for (const auto& [rail, on_rail] : by_rail) {
    const std::string iface = on_rail.front()->figure ? on_rail.front()->figure->subject.iface : "";
    const std::string name = what.back() == ')' ? what.substr(0, what.size() - 1) + ", " : what + " (";
    slowest_and_median(on_rail, name + (rail.empty() ? "no rail" : "rail " + rail + (iface.empty() ? "" : " " + iface)) + ")", out);
  }
}

void network_rows(const TableRecords& records, std::vector<Row>& out) {
  const auto& flows = records.of(TableKind::flows);
  std::vector<const Record*> matrix, tcp_lat, rdma_bw, rdma_lat;
  for (const Record* r : flows)
    if (matrix_flow(*r)) matrix.push_back(r);
  for (const Record* r : records.of(TableKind::latency))
    (transport_of(record_kind(*r)) == Transport::rdma ? rdma_lat : tcp_lat).push_back(r);
  for (const Record* r : records.of(TableKind::rdma_bandwidth))
    if (rdma_matrix_headline(*r)) rdma_bw.push_back(r);
  const auto& tcp_bw = matrix.empty() ? flows : matrix;
  per_rail(tcp_bw, matrix.empty() ? "TCP goodput" : "TCP goodput (matrix)", out);
  per_rail(tcp_lat, "TCP latency p50", out);
  per_rail(rdma_bw, "RDMA WRITE bandwidth", out);
  per_rail(rdma_lat, "RDMA latency t_typical", out);
}

// Each collective's peak bus bandwidth over its sizes (plain sweeps, not scaling steps). A sweep on
// one rank moves nothing between ranks (busbw 0, or a local copy's rate where the factor is 1: an
// H200's summary read 0 for allreduce and 2045 GB/s for broadcast), so it has no row here; its
// table stays in the body.
void collective_rows(const Report& rep, const TableRecords& records, std::vector<Row>& out) {
  std::map<std::string, const Record*> best;
  std::vector<std::string> order;
  for (const Record* of_kind : records.of(TableKind::collective)) {
    const Record& r = *of_kind;
    if (r.status != Status::passed || r.ranks < 2) continue;
    if (r.variant != "out-of-place" && r.variant != "in-place") continue;
    const auto* f = record_figure(r);
    if (!f) continue;
    const std::string key = r.suite + " " + r.name + " " + r.variant;
    if (!best.count(key)) order.push_back(key);
    if (!best[key] || f->value > record_figure(*best[key])->value) best[key] = &r;
  }
  for (const auto& key : order) {
    const Record* r = best[key];
    const auto* f = record_figure(*r);
    const int nodes = record_nodes(*r, rep.provenance);
    out.push_back({nodes > 1 ? kBetween : kInside, key + " busbw, peak (at " + format_bytes(r->bytes) + ")",
                   std::to_string(r->ranks) + " ranks on " + (nodes > 0 ? std::to_string(nodes) : std::string("?")) + " node(s)",
                   r, f->value, f->unit});
  }
}

// Per GPU, its worst pinned copy (lowest efficiency, else lowest rate).
void pcie_rows(const TableRecords& records, std::vector<Row>& out) {
  std::map<std::pair<std::string, int>, const Record*> worst;
  auto score = [](const Record& r) { return r.figure && r.figure->efficiency ? *r.figure->efficiency : r.algbw_GBps; };
  for (const Record* of_kind : records.of(TableKind::pcie)) {
    const Record& r = *of_kind;
    if (r.status != Status::passed || !r.figure) continue;
    if (r.figure->subject.kind != SubjectKind::gpu || r.variant.find("pageable") != std::string::npos) continue;
    const std::string& dev = r.figure->subject.device;
    const int gpu = !dev.empty() && std::isdigit(static_cast<unsigned char>(dev[0])) ? std::stoi(dev) : -1;
    auto& w = worst[{r.host, gpu}];
    if (!w || score(r) < score(*w)) w = &r;
  }
  for (const auto& [key, r] : worst)
    out.push_back({kInside, "PCIe pinned copy, worst (" + r->name + " " + r->variant + ")",
                   key.first + " GPU " + std::to_string(key.second), r, r->figure->value, r->figure->unit});
}

// Per host and NUMA node, the best kernel and thread count.
void memory_rows(const TableRecords& records, std::vector<Row>& out) {
  std::map<std::pair<std::string, int>, const Record*> best;
  for (const Record* of_kind : records.of(TableKind::host_memory)) {
    const Record& r = *of_kind;
    if (r.status != Status::passed) continue;
    auto& b = best[{r.host, jsonx::integer(r.extra, "numa_node").value_or(-1)}];
    if (!b || r.algbw_GBps > b->algbw_GBps) b = &r;
  }
  for (const auto& [key, r] : best)
    out.push_back({kInside, "host memory, best (" + r->name.substr(r->name.find('_') + 1) + ", " +
                                std::to_string(jsonx::integer(r->extra, "threads").value_or(1)) + " threads)",
                   key.first + " NUMA " + std::to_string(key.second), r, r->algbw_GBps, "GB/s"});
}

}  // namespace

Table summary_table(const Report& rep) { return summary_table(rep, TableRecords(rep), BlamedPairs(rep)); }

Table summary_table(const Report& rep, const TableRecords& records, const BlamedPairs& blamed) {
  std::vector<Row> rows;
  network_rows(records, rows);
  collective_rows(rep, records, rows);
  pcie_rows(records, rows);
  memory_rows(records, rows);
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.path == kBetween && b.path != kBetween; });
  Table t;
  t.kind = TableKind::summary;
  t.title = "Summary";
  t.note = "the headline figures by path; value and ceiling in the row's unit";
  t.columns = {{"path", "", false},  {"figure", "", false},  {"subject", "", false},       {"value", "", true},
               {"ceiling", "", true}, {"unit", "", false},   {"efficiency", "%", true}};
  for (const auto& r : rows) {
    const auto c = ceiling_view(*r.record);
    TableRow row;
    row.status = r.record->status;
    if (r.failed)
      row.cells = {text_cell(r.path), text_cell(r.figure), text_cell(r.subject), text_cell(to_string(r.record->status)),
                   text_cell(""),     text_cell(r.unit),   text_cell("")};
    else
      row.cells = {text_cell(r.path), text_cell(r.figure), text_cell(r.subject), figure_cell(r.value),
                   ceiling_cell(c),   text_cell(r.unit),   efficiency_cell(c)};
    if (!r.failed && r.record->figure) row.cells.back().flagged = blamed(r.record->figure->subject);
    t.rows.push_back(std::move(row));
  }
  for (const auto& nv : nvlink_summary_rows(rep)) {  // inside a node, after the measured rows
    TableRow row;
    row.status = Status::skipped;
    Cell ceiling = nv.ceiling.known ? figure_cell(nv.ceiling.value) : text_cell("");
    ceiling.derivation = nv.ceiling.known ? nv.ceiling.derivation : "";
    row.cells = {text_cell(kInside), wrap_cell(nv.figure), text_cell(nv.subject), text_cell("not measured"),
                 std::move(ceiling),  text_cell("GB/s"),   text_cell("")};
    t.rows.push_back(std::move(row));
  }
  if (rep.findings.is_array())
    for (const auto& f : rep.findings) {
      if (t.bullets.size() >= kFindingsShown) {
        t.bullets.push_back("... and more (every finding is in report.json)");
        break;
      }
      t.bullets.push_back(jsonx::string(f, "severity").value_or("note") + ": " +  // topology, traffic, host load
                          jsonx::string(f, "message").value_or(f.dump()));
    }
  return t;
}

}  // namespace gpunet::report
