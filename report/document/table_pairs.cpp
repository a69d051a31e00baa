// Pairwise tables: the N x N matrix of the matrix flows (rows send, columns receive, Gb/s and % of
// the flow's ceiling) for TCP and for RDMA's headline size, and the TCP flows table (sender ->
// receiver, test, streams, goodput, ceiling, efficiency, dips, and iperf3's final sender and receiver
// lines: transfer, bitrate, Retr).
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>

#include "report/analysis/analysis.hpp"
#include "report/analysis/direction.hpp"
#include "report/analysis/tcp_flow_cpu.hpp"
#include "report/document/table_model.hpp"
#include "report/judge/culprits.hpp"
#include "report/model/json_access.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

namespace {

constexpr size_t kFlowsShown = 1000;       // rows of the flows table a document shows
constexpr size_t kMatrixShownHosts = 64;   // ends a side above which a matrix is in its CSV alone

struct Endpoint {
  std::string host;
  int rank = -1;
  bool operator<(const Endpoint& o) const { return rank != o.rank ? rank < o.rank : host < o.host; }
  bool operator==(const Endpoint& o) const { return rank == o.rank && host == o.host; }
};

std::pair<Endpoint, Endpoint> ends_of(const Record& r) {
  if (r.figure && r.figure->subject.kind == SubjectKind::pair)
    return {{r.figure->subject.host, r.figure->subject.rank}, {r.figure->subject.dst_host, r.figure->subject.dst_rank}};
  return {{extra_string(r, "src_host").value_or(""), extra_integer(r, "src_rank").value_or(-1)},
          {extra_string(r, "dst_host").value_or(r.host), extra_integer(r, "dst_rank").value_or(r.rank)}};
}

// Host names label the endpoints; where two ranks share a host (one machine), host:rank does.
class EndpointLabels {
 public:
  explicit EndpointLabels(const std::vector<Endpoint>& ends) {
    std::map<std::string, int> per_host;
    for (const auto& e : ends) ++per_host[e.host];
    for (const auto& e : ends) label_[e] = per_host[e.host] > 1 ? e.host + ":" + std::to_string(e.rank) : e.host;
  }
  std::string operator()(const Endpoint& e) const {
    const auto it = label_.find(e);
    return it == label_.end() ? e.host : it->second;
  }

 private:
  std::map<Endpoint, std::string> label_;
};

// Every end of the records, each once, in order.
std::vector<Endpoint> endpoints(const std::vector<const Record*>& recs) {
  std::set<Endpoint> s;
  for (const Record* r : recs) {
    const auto [a, b] = ends_of(*r);
    s.insert(a);
    s.insert(b);
  }
  return {s.begin(), s.end()};
}

// A matrix's rows: one per sender, a cell per receiver (the flow's rate and its share of its ceiling).
// The ends by their place in `ends`; the cells by sender and receiver place (a million at 1,024 hosts).
struct MatrixCells {
  MatrixCells(const std::vector<const Record*>& flows, BlamedPairs blamed_pairs)
      : ends(endpoints(flows)), label(ends), blamed(std::move(blamed_pairs)) {
    cell.reserve(flows.size());
    for (const Record* r : flows) {
      const auto [src, dst] = ends_of(*r);
      cell[key(place(src), place(dst))] = r;  // the last of a pair, as the file holds them
    }
  }
  size_t place(const Endpoint& e) const {
    return static_cast<size_t>(std::lower_bound(ends.begin(), ends.end(), e) - ends.begin());
  }
  static uint64_t key(size_t src, size_t dst) { return (static_cast<uint64_t>(src) << 32) | dst; }
  TableRow row(size_t src) const;

  std::vector<Endpoint> ends;  // in order
  EndpointLabels label;
  BlamedPairs blamed;
  std::unordered_map<uint64_t, const Record*> cell;
};

TableRow MatrixCells::row(size_t src) const {
  TableRow row;
  row.cells.push_back(text_cell(label(ends[src])));
  for (size_t dst = 0; dst < ends.size(); ++dst) {
    const auto it = cell.find(key(src, dst));
    if (it == cell.end()) {
      row.cells.push_back(text_cell(""));
      continue;
    }
    const Record& r = *it->second;
    const auto* f = record_figure(r);
    if (r.status != Status::passed || !f) {
      row.cells.push_back(text_cell(to_string(r.status)));
      row.status = r.status;
      continue;
    }
    const auto c = ceiling_view(r);
    Cell x = number_cell(f->value, format_figure(f->value) + (c.efficiency ? " (" + format_fixed(*c.efficiency * 100, 0) + ")" : ""));
    x.efficiency = c.efficiency;
    x.flagged = blamed(f->subject);
    row.cells.push_back(std::move(x));
  }
  return row;
}

// Rows = senders, columns = receivers; each cell the flow's rate and its share of its ceiling.
Table matrix_table(const std::string& title, const std::string& csv, const std::vector<const Record*>& flows,
                   const BlamedPairs& blamed) {
  // Shared by the rows made now and by the CSV's, made later when the documents show none.
  const auto cells = std::make_shared<const MatrixCells>(flows, blamed);
  const auto& ends = cells->ends;
  Table t;
  t.kind = TableKind::pair_matrix;
  t.title = title;
  t.csv = csv;
  t.note = "rows send, columns receive; each cell: goodput in Gb/s (efficiency against the flow's ceiling, %)";
  t.columns.push_back({"sender / receiver", "", false});
  for (const auto& e : ends) {
    Column c(cells->label(e), "Gb/s, %", true);
    c.csv_key = Column(cells->label(e), "Gb/s").key();  // the CSV holds the goodput alone
    t.columns.push_back(std::move(c));
  }
  if (ends.size() <= kMatrixShownHosts) {
    for (size_t src = 0; src < ends.size(); ++src) t.rows.push_back(cells->row(src));
    return t;
  }
  t.every_row = {ends.size(), [cells](size_t src) { return cells->row(src); }};
  t.not_shown = std::to_string(ends.size()) + " x " + std::to_string(ends.size()) + " ends, too wide for a page: every cell is in " +
                csv + ", and the pair heatmap under Charts draws them.";
  return t;
}

// A document shows the failed flows first, then those named slow, then the lowest efficiency (or
// rate where no ceiling is known), at most kFlowsShown.
std::vector<size_t> worst_flows(const std::vector<const Record*>& flows, const BlamedPairs& blamed) {
  const auto key = [&](size_t i) {
    const Record& r = *flows[i];
    const auto* f = record_figure(r);
    const bool ok = r.status == Status::passed && f;
    const bool named = ok && blamed(f->subject);
    const double share = ok && f->efficiency ? *f->efficiency : 1e300;
    return std::tuple(ok, !named, share, ok ? f->value : 0.0, i);
  };
  std::vector<size_t> order(flows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const size_t n = std::min(order.size(), kFlowsShown);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](size_t a, size_t b) { return key(a) < key(b); });
  order.resize(n);
  return order;
}

std::string test_text(const Record& r) {
  std::string t = r.figure ? r.figure->parameters.count("test") ? r.figure->parameters.at("test") : r.variant : r.variant;
  if (extra_string(r, "direction").value_or("") == "bidirectional") t += " (bidirectional)";
  return t;
}

// iperf3's final lines of a flow, as cells: the sender's transfer, bitrate (over its own clock) and
// Retr, then the receiver's transfer and bitrate (blank where the record does not carry that end).
std::vector<Cell> iperf3_end_cells(const Record& r) {
  const auto line = [](std::optional<double> bytes, std::optional<double> seconds) {
    if (!bytes || !seconds) return std::vector<Cell>{text_cell(""), text_cell("")};
    return std::vector<Cell>{figure_cell(*bytes / 1e9), figure_cell(*seconds > 0 ? *bytes * 8 / *seconds / 1e9 : 0)};
  };
  const auto sent = extra_number(r, "bytes_sent");
  auto cells = line(sent, extra_number(r, "sender_seconds"));
  cells.push_back(sent ? int_cell(tcp_info_sum(r, "retransmits")) : text_cell(""));
  const auto received = line(static_cast<double>(r.bytes), extra_number(r, "seconds"));
  cells.insert(cells.end(), received.begin(), received.end());
  return cells;
}

// One flow's row of the flows table.
TableRow flow_row(const Record& r, const EndpointLabels& label, const BlamedPairs& blamed) {
  const auto [src, dst] = ends_of(r);
  const auto* f = record_figure(r);
  const bool ok = r.status == Status::passed && f;
  const auto c = ceiling_view(r);
  TableRow row;
  row.status = r.status;
  row.cells = {text_cell(label(src)),
               text_cell(label(dst)),
               text_cell(test_text(r)),
               int_cell(extra_integer(r, "streams").value_or(static_cast<int>(r.count))),
               ok ? figure_cell(f->value) : text_cell(""),
               ceiling_cell(c),
               efficiency_cell(c),
               int_cell(static_cast<long long>(stability_dips(r)))};
  const auto ends = iperf3_end_cells(r);
  row.cells.insert(row.cells.end(), ends.begin(), ends.end());
  row.cells.push_back(text_cell(flow_cpu_text(r)));
  row.cells.push_back(status_cell(r));
  if (f) row.cells[6].flagged = blamed(f->subject);  // the efficiency cell
  return row;
}

Table flows_table(const std::vector<const Record*>& flows, const BlamedPairs& blamed) {
  const EndpointLabels label(endpoints(flows));
  Table t;
  t.kind = TableKind::flows;
  t.title = "TCP flows";
  t.csv = "tcp_flows.csv";
  t.note = "goodput measured at the receiver; dips: intervals below the dip threshold of the flow's median; "
           "sender and receiver columns: iperf3's final sender and receiver lines (Transfer, Bitrate, Retr); "
           "CPU: each end's thread over the flow, % of one core (user/system), as iperf3 -V";
  t.columns = {{"sender", "", false},           {"receiver", "", false},          {"test", "", false},
               {"streams", "", true},           {"goodput", "Gb/s", true},        {"ceiling", "Gb/s", true},
               {"efficiency", "%", true},       {"dips", "", true},               {"sender transfer", "GB", true},
               {"sender bitrate", "Gb/s", true}, {"sender Retr", "", true},        {"receiver transfer", "GB", true},
               {"receiver bitrate", "Gb/s", true}, {"CPU sender / receiver", "", false}, {"status", "", false}};
  if (flows.size() <= kFlowsShown) {
    for (const Record* r : flows) t.rows.push_back(flow_row(*r, label, blamed));
    return t;
  }
  for (size_t i : worst_flows(flows, blamed)) t.rows.push_back(flow_row(*flows[i], label, blamed));
  t.every_row = {flows.size(), [flows, label, blamed](size_t i) { return flow_row(*flows[i], label, blamed); }};
  t.not_shown = std::to_string(kFlowsShown) + " of " + std::to_string(flows.size()) +
                " flows shown: the failed, those named slow, then the lowest efficiency; every flow is in tcp_flows.csv.";
  return t;
}

// The rail of a flow on one of several rails, -1 in a one-interface run.
int rail_of(const Record& r) {
  if (!r.figure) return -1;
  const auto it = r.figure->parameters.find("rail");
  if (it == r.figure->parameters.end()) return -1;
  try {
    return std::stoi(it->second);
  } catch (const std::exception&) {
    return -1;
  }
}

// What a tcp matrix record says of its coverage and of the suspects it did not re-test, per rail
// (-1: a run on one interface).
std::map<int, std::vector<std::string>> matrix_notes(const std::vector<Record>& results) {
  std::map<int, std::vector<std::string>> notes;
  for (const auto& r : results) {
    if (record_kind(r) != RecordKind::tcp_matrix) continue;
    const int rail = static_cast<int>(jsonx::integer(r.extra, "rail").value_or(-1));
    for (const char* key : {"coverage", "not_retested_note"})
      if (const auto text = jsonx::string(r.extra, key)) notes[rail].push_back(*text);
  }
  return notes;
}

// A run on several rails: one matrix per rail (the figure's "rail" parameter), titled "TITLE, rail 1
// (eth1)" by the rail's interface or port and written to STEM_rail1.csv. Empty for a run on one
// interface or port (its one matrix keeps its title and file).
std::vector<std::pair<int, Table>> per_rail_matrices(const std::vector<const Record*>& recs, const std::string& title,
                                                     const std::string& stem, const BlamedPairs& blamed) {
  std::map<int, std::vector<const Record*>> by_rail;
  for (const Record* r : recs) by_rail[rail_of(*r)].push_back(r);
  std::vector<std::pair<int, Table>> out;
  if (by_rail.empty() || (by_rail.size() == 1 && by_rail.count(-1))) return out;
  for (const auto& [rail, on_rail] : by_rail) {
    const std::string iface = on_rail.front()->figure ? on_rail.front()->figure->subject.iface : "";
    out.emplace_back(rail, matrix_table(title + ", rail " + std::to_string(rail) + (iface.empty() ? "" : " (" + iface + ")"),
                                        stem + "_rail" + std::to_string(rail) + ".csv", on_rail, blamed));
  }
  return out;
}

// "GPUs behind eth1 (their nearest NIC carries it): GPU2, GPU3 on node0, node1": from each node's
// topology section (gpus[].nearest_nic.interfaces, topology/json.cpp); "" when no node pairs a GPU
// with it.
std::string gpus_behind(const gpunet::json& topology, const std::string& iface) {
  if (!topology.is_object() || iface.empty()) return "";
  std::map<std::string, std::vector<std::string>> hosts_by_gpus;
  for (const auto& [host, node] : topology.items()) {
    const auto* gpus = jsonx::array_at(node, "gpus");
    if (!gpus) continue;
    std::string mine;
    for (size_t k = 0; k < gpus->size(); ++k) {
      const auto* names = jsonx::array_at(jsonx::section((*gpus)[k], "nearest_nic"), "interfaces");
      if (names && std::any_of(names->begin(), names->end(), [&](const gpunet::json& n) { return n.is_string() && n.get<std::string>() == iface; }))
        mine += (mine.empty() ? "GPU" : ", GPU") + std::to_string(k);
    }
    if (!mine.empty()) hosts_by_gpus[mine].push_back(host);
  }
  std::string out;
  for (const auto& [gpus, hosts] : hosts_by_gpus) {
    std::string on;
    for (size_t i = 0; i < hosts.size() && i < 8; ++i) on += (i ? ", " : "") + hosts[i];
    if (hosts.size() > 8) on += " and " + std::to_string(hosts.size() - 8) + " more";
    out += (out.empty() ? "" : "; ") + gpus + " on " + on;
  }
  return out.empty() ? "" : "GPUs behind " + iface + " (their nearest NIC carries it): " + out;
}

}  // namespace

bool matrix_flow(const Record& r) {
  return r.figure && has_parameter(*r.figure, "test", "matrix");
}

bool rdma_matrix_headline(const Record& r) { return r.name == "write_bw" && r.extra.contains("src_host"); }

std::vector<Table> pair_tables(const Report& rep, const TableRecords& records, const BlamedPairs& blamed) {
  const auto& flows = records.of(TableKind::flows);
  std::vector<const Record*> matrix, rdma;
  for (const Record* r : flows)
    if (matrix_flow(*r)) matrix.push_back(r);
  for (const Record* r : records.of(TableKind::rdma_bandwidth))
    if (rdma_matrix_headline(*r)) rdma.push_back(r);
  std::vector<Table> out;
  auto notes = matrix_notes(rep.results);
  const auto tcp = per_rail_matrices(matrix, "TCP pair matrix", "tcp_matrix", blamed);
  if (tcp.empty()) {
    out.push_back(matrix_table("TCP pair matrix (matrix flows)", "tcp_matrix.csv", matrix, blamed));
    if (!matrix.empty()) out.back().bullets = notes[-1];
  }
  std::map<int, std::string> rail_iface;
  for (const Record* r : matrix)
    if (r->figure) rail_iface.try_emplace(rail_of(*r), r->figure->subject.iface);
  for (const auto& [rail, t] : tcp) {
    out.push_back(t);
    out.back().bullets = notes[rail];
    if (const auto behind = gpus_behind(rep.topology, rail_iface[rail]); !behind.empty()) out.back().bullets.push_back(behind);
  }
  const auto rdma_rails = per_rail_matrices(rdma, "RDMA pair matrix", "rdma_matrix", blamed);
  if (rdma_rails.empty()) out.push_back(matrix_table("RDMA pair matrix (WRITE bandwidth at the headline size)", "rdma_matrix.csv", rdma, blamed));
  for (const auto& [rail, t] : rdma_rails) out.push_back(t);
  out.push_back(flows_table(flows, blamed));
  return out;
}

}  // namespace gpunet::report
