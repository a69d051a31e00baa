#include "report/render/chart_pairs.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "report/analysis/analysis.hpp"
#include "report/judge/culprits.hpp"
#include "report/model/json_access.hpp"
#include "report/model/stats.hpp"
#include "report/render/svg_common.hpp"
#include "report/render/svg_heatmap_blocks.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

namespace {

struct PairFlow {
  const Record* record;
  const Figure* figure;
};

// One kind of pair matrix: which figures are its cells.
struct MatrixKind {
  const char* metric;
  const char* name;  // for titles and notes
  bool (*takes)(const Figure&);
};

bool tcp_matrix_cell(const Figure& f) { return has_parameter(f, "test", "matrix"); }
bool rdma_matrix_cell(const Figure& f) { return has_parameter(f, "memory", "host") && !f.parameters.count("direction"); }

const MatrixKind kMatrixKinds[] = {
    {"tcp.goodput", "tcp", tcp_matrix_cell},
    {"rdma.write.bw", "rdma", rdma_matrix_cell},
};

int64_t figure_bytes(const Figure& f) {
  const auto it = f.parameters.find("bytes");
  if (it == f.parameters.end()) return 0;
  try {
    return std::stoll(it->second);
  } catch (const std::exception&) {
    return 0;
  }
}

// node2 before node10.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      const std::string na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

double pair_median(std::vector<double> v) { return percentile(std::move(v), 0.5); }

// The promised rate of a link in `unit`, from the spec the verdicts judged against.
std::optional<double> promised_in_unit(const Report& rep, const std::string& unit) {
  const auto* spec = jsonx::object_at(rep.extra, "spec");
  const auto rate = spec ? jsonx::number(*spec, "link_rate_Gbps") : std::nullopt;
  if (!rate || !(*rate > 0)) return std::nullopt;
  if (unit == "Gb/s") return rate;
  if (unit == "GB/s") return *rate / 8;
  return std::nullopt;
}

std::string spec_name(const Report& rep) {
  const auto* spec = jsonx::object_at(rep.extra, "spec");
  if (!spec) return "the spec";
  const auto name = jsonx::string(*spec, "name").value_or("");
  return name.empty() ? "the spec " + jsonx::string(*spec, "file").value_or("") : "the spec \"" + name + "\"";
}

Heatmap build_heatmap(const Report& rep, const MatrixKind& kind, const std::vector<PairFlow>& flows,
                      const BlamedPairs& is_blamed) {
  // Ranks of one host test each other over loopback: then a cell is a pair of ranks.
  const bool by_rank = std::any_of(flows.begin(), flows.end(), [](const PairFlow& p) {
    return p.figure->subject.host == p.figure->subject.dst_host;
  });
  auto end_label = [&](const std::string& host, int rank) { return by_rank ? host + "#" + std::to_string(rank) : host; };
  std::set<std::string> names;
  for (const auto& p : flows) {
    names.insert(end_label(p.figure->subject.host, p.figure->subject.rank));
    names.insert(end_label(p.figure->subject.dst_host, p.figure->subject.dst_rank));
  }
  Heatmap h;
  h.labels.assign(names.begin(), names.end());
  std::sort(h.labels.begin(), h.labels.end(), natural_less);
  const size_t n = h.labels.size();
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < n; ++i) index[h.labels[i]] = i;
  h.cells.assign(n, std::vector<HeatmapCell>(n));
  std::vector<std::vector<std::optional<double>>> values(n, std::vector<std::optional<double>>(n));
  const Figure& first = *flows.front().figure;
  h.unit = first.unit;
  for (const auto& p : flows) {
    const Subject& s = p.figure->subject;
    const size_t i = index.at(end_label(s.host, s.rank)), j = index.at(end_label(s.dst_host, s.dst_rank));
    HeatmapCell& c = h.cells[i][j];
    if (c.measured) continue;  // one flow per pair and direction; a repeat does not replace it
    c.measured = true;
    if (p.record->status == Status::passed) {
      c.value = p.figure->value;
      c.efficiency = p.figure->efficiency;
      c.blamed = is_blamed(s);
      values[i][j] = p.figure->value;
    } else {
      c.note = p.record->reason;
    }
  }
  const auto* analysis = jsonx::object_at(rep.extra, "analysis");
  h.threshold = analysis ? jsonx::number(*analysis, "threshold").value_or(0.8) : 0.8;
  const auto promised = promised_in_unit(rep, h.unit);
  h.reference = promised ? *promised : typical_pair(values).value_or(0);
  size_t measured = 0, bad = 0, blamed_cells = 0, above = 0;
  for (auto& row : h.cells)
    for (auto& c : row) {
      if (!c.measured) continue;
      ++measured;
      c.vs_reference = c.value && h.reference > 0 ? *c.value / h.reference : 0;
      c.above_ceiling = c.value && c.efficiency && *c.efficiency > kOverCeiling;
      c.good = c.value && c.vs_reference >= h.threshold && !c.blamed && !c.above_ceiling;
      if (!c.good) ++bad;
      blamed_cells += c.blamed;
      above += c.above_ceiling && !c.blamed;
    }
  const std::string bytes = kind.metric == std::string("rdma.write.bw") ? " at " + format_bytes(figure_bytes(first)) : "";
  h.title = std::string(kind.name) + " " + metric_label(first) + " of the matrix flows" + bytes + ", per " +
            (by_rank ? "rank" : "host") + " pair (" + h.unit + ")";
  h.row_label = "from";
  h.col_label = "to";
  const std::string ref = svg::value_text(h.reference) + " " + h.unit;
  if (const size_t per = hosts_per_block(n); per > 1) {
    h.legend.push_back("Rows send, columns receive. Each square is a block of " + std::to_string(per) + " x " +
                       std::to_string(per) + " host pairs, coloured by its worst pair, so one slow host is a line; the "
                       "hosts named beside the grid have at least a quarter of their pairs below the threshold.");
  } else {
    h.legend.push_back("Rows send, columns receive. Each cell: the flow's " + metric_label(first) + " in " + h.unit +
                       " and, under it, its efficiency against the ceiling of its own path.");
  }
  if (promised)
    h.legend.push_back("Colour: the cell against the promised link rate, " + ref + " (" + spec_name(rep) + ").");
  else
    h.legend.push_back("Colour: the cell against the typical pair, " + ref +
                       " (the median over hosts of each host's median pair; no spec promises a link rate), so a slow "
                       "node's row and column stand out.");
  h.legend.push_back(std::to_string(bad) + " of " + std::to_string(measured) + " pairs below " +
                     format_percent(h.threshold) + " of it" + (blamed_cells + above ? ", named slow or above their ceiling" : "") + ".");
  if (blamed_cells)
    h.legend.push_back(std::to_string(blamed_cells) + " named slow in What is wrong: coloured as failing, whatever their rate.");
  if (above)
    h.legend.push_back(std::to_string(above) + " above their own path's ceiling (over " + format_percent(kOverCeiling) +
                       ", purple): a ceiling to explain, not a good figure.");
  return h;
}

// Adds the heatmap of one rail's flows ("" : a one-interface run) to `out`, or says why it is left out.
void add_heatmap(const Report& rep, const MatrixKind& kind, const std::vector<PairFlow>& flows, const std::string& rail,
                 const BlamedPairs& blamed, Drawn<Heatmap>& out) {
  Heatmap h = build_heatmap(rep, kind, flows, blamed);
  if (!rail.empty()) {
    const std::string iface = flows.front().figure->subject.iface;
    h.title = "rail " + rail + (iface.empty() ? "" : " (" + iface + ")") + ": " + h.title;
  }
  size_t measured = 0;
  for (const auto& row : h.cells) measured += static_cast<size_t>(std::count_if(row.begin(), row.end(), [](const HeatmapCell& c) { return c.measured; }));
  if (measured < 2) {
    out.omitted.push_back(std::string(kind.name) + " pair heatmap: one pair measured, nothing to compare it with");
    return;
  }
  if (h.labels.size() > kMaxHeatmapHosts) {
    out.omitted.push_back(std::string(kind.name) + " pair heatmap: " + std::to_string(h.labels.size()) +
                          " hosts, more than " + std::to_string(kMaxHeatmapHosts) + " can be drawn; the pairs are in report.json");
    return;
  }
  out.charts.push_back(std::move(h));
}

}  // namespace

std::optional<double> typical_pair(const std::vector<std::vector<std::optional<double>>>& values) {
  const size_t n = values.size();
  std::vector<double> host_medians;
  for (size_t k = 0; k < n; ++k) {
    std::vector<double> mine;
    for (size_t j = 0; j < n; ++j) {
      if (j < values[k].size() && values[k][j]) mine.push_back(*values[k][j]);
      if (j != k && k < values[j].size() && values[j][k]) mine.push_back(*values[j][k]);
    }
    if (!mine.empty()) host_medians.push_back(pair_median(std::move(mine)));
  }
  if (host_medians.empty()) return std::nullopt;
  return pair_median(std::move(host_medians));
}

Drawn<Heatmap> pair_heatmaps(const Report& rep, const BlamedPairs& blamed) {
  Drawn<Heatmap> out;
  for (const MatrixKind& kind : kMatrixKinds) {
    std::vector<PairFlow> flows;
    bool other_flows = false;
    for (const auto& r : rep.results) {
      const Figure* f = r.figure ? &*r.figure : nullptr;
      if (!f || f->metric != kind.metric || f->subject.kind != SubjectKind::pair) continue;
      if (kind.takes(*f))
        flows.push_back({&r, f});
      else
        other_flows = true;
    }
    if (kind.metric == std::string("rdma.write.bw") && !flows.empty()) {  // one size: the largest measured
      int64_t largest = 0;
      for (const auto& p : flows) largest = std::max(largest, figure_bytes(*p.figure));
      flows.erase(std::remove_if(flows.begin(), flows.end(), [&](const PairFlow& p) { return figure_bytes(*p.figure) != largest; }),
                  flows.end());
    }
    if (flows.empty()) {
      if (other_flows)
        out.omitted.push_back(std::string(kind.name) + " pair heatmap: no matrix flows in this run (only flows that " +
                              "shared a link or re-tested a pair, which would mislead as cells)");
      continue;
    }
    // A run on several rails: one heatmap per rail (the figure's "rail" parameter).
    std::map<std::string, std::vector<PairFlow>> by_rail;
    for (const auto& p : flows) {
      const auto it = p.figure->parameters.find("rail");
      by_rail[it == p.figure->parameters.end() ? "" : it->second].push_back(p);
    }
    for (const auto& [rail, on_rail] : by_rail) add_heatmap(rep, kind, on_rail, rail, blamed, out);
  }
  return out;
}

}  // namespace gpunet::report
