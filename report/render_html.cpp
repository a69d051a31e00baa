// report.html: one self-contained page. No script, no external resource (a Content-Security-Policy
// forbids both), inline SVG charts, the overall verdict at the top. Every string is escaped.
#include <map>

#include "report/culprits.hpp"
#include "report/analysis.hpp"
#include "report/escape.hpp"
#include "report/chart_pairs.hpp"
#include "report/chart_timeline.hpp"
#include "report/html_charts.hpp"
#include "report/json_access.hpp"
#include "report/renderers.hpp"
#include "report/sections.hpp"
#include "report/text_format.hpp"
#include "report/training_render.hpp"
#include "report/verdicts_outputs.hpp"

namespace gpunet::report {

namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
main{max-width:1200px;margin:0 auto;padding:0 20px 40px}
header.verdict{padding:18px 20px;color:#fff}
header.PASS{background:#2e7d32}header.WARN{background:#b26a00}header.FAIL{background:#b00020}
header.UNKNOWN{background:#555}
header h1{margin:0;font-size:28px}header p{margin:4px 0 0;font-size:15px}
h2{margin-top:28px;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0;background:#fff;font-size:13px}
table{display:block;max-width:100%;overflow-x:auto}
th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top;overflow-wrap:break-word}
td:last-child{overflow-wrap:anywhere}
td.n{white-space:nowrap}
td.w{white-space:normal;min-width:12em;overflow-wrap:anywhere}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.failed td,tr.timed_out td{background:#fdecea}tr.skipped td{color:#777}
.low{color:#b00020;font-weight:600}.ok{color:#2e7d32}
.charts{display:flex;flex-wrap:wrap;gap:14px}
svg.chart{background:#fff;border:1px solid #ddd;max-width:100%;height:auto}
svg .plot{fill:#fff;stroke:#999}svg .grid{stroke:#eee}svg .tick{font-size:11px;fill:#444}
svg .axis{font-size:12px;fill:#222}svg .legend{font-size:11px;fill:#222}svg .ct{font-size:14px;font-weight:600}
svg .cell{font-size:10px;fill:#000}svg .cell.eff{font-size:9px;fill:#222}
.charts.small{gap:8px}h4{margin:14px 0 6px}
p.chart-note{margin:4px 0 8px;color:#333}p.omitted{margin:2px 0;color:#555;font-size:13px}
svg .dip{fill:#b00020;fill-opacity:.2}svg .ceiling{stroke:#b00020;stroke-width:1.2;stroke-dasharray:5 3}
svg .rate{fill:none;stroke:#1f77b4;stroke-width:1.6}
details{margin:6px 0}summary{cursor:pointer;font-weight:600}
ol.ceil li{margin:2px 0}
)";

std::string td(const std::string& text, bool number = false) {
  return std::string(number ? "<td class=\"n\">" : "<td>") + html_escape(text) + "</td>";
}

std::string td_wrap(const std::string& text) { return "<td class=\"w\">" + html_escape(text) + "</td>"; }

std::string eff_cell(const CeilingView& c, double threshold) {
  if (!c.efficiency) return "<td></td>";
  const bool low = *c.efficiency < threshold;
  return std::string("<td class=\"n ") + (low ? "low" : "ok") + "\">" + html_escape(format_percent(*c.efficiency)) +
         "</td>";
}

class HtmlDerivations {
 public:
  std::string cite(const CeilingView& c) {
    if (!c.known) return "<td title=\"" + html_escape(c.reason) + "\"></td>";
    auto [it, fresh] = index_.try_emplace(std::string(c.derivation), static_cast<int>(order_.size()) + 1);
    if (fresh) order_.emplace_back(c.derivation);
    return "<td class=\"n\" title=\"" + html_escape(c.derivation) + "\">" + html_escape(format_figure(c.value)) +
           " <a href=\"#c" + std::to_string(it->second) + "\">[" + std::to_string(it->second) + "]</a></td>";
  }
  std::string render() const {
    std::string out = "<ol class=\"ceil\">";
    for (size_t i = 0; i < order_.size(); ++i)
      out += "<li id=\"c" + std::to_string(i + 1) + "\">" + html_escape(order_[i]) + "</li>";
    return out + "</ol>";
  }
  bool empty() const { return order_.empty(); }

 private:
  std::map<std::string, int> index_;
  std::vector<std::string> order_;
};

std::string verdict_header(const Report& rep) {
  const auto* a = jsonx::object_at(rep.extra, "analysis");
  std::string verdict = a ? jsonx::string(*a, "verdict").value_or("UNKNOWN") : "UNKNOWN";
  if (verdict != "PASS" && verdict != "WARN" && verdict != "FAIL") verdict = "UNKNOWN";
  const auto summary = a ? jsonx::string(*a, "summary").value_or("") : "the report was not analysed";
  return "<header class=\"verdict " + verdict + "\"><h1>gpunet-bench: " + html_escape(verdict) + "</h1><p>" +
         html_escape(summary) + "</p></header>";
}

std::string provenance(const Report& rep) {
  const auto& p = rep.provenance;
  std::string argv;
  for (const auto& a : p.argv) argv += (argv.empty() ? "" : " ") + a;
  std::vector<std::string> hosts;
  for (const auto& h : p.hosts)
    if (hosts.empty() || hosts.back() != h) hosts.push_back(h);
  std::string host_text;
  for (size_t i = 0; i < hosts.size() && i < 32; ++i) host_text += (i ? ", " : "") + hosts[i];
  if (hosts.size() > 32) host_text += ", ... (" + std::to_string(hosts.size()) + " in all)";
  std::string out = "<h2>Run</h2><table>";
  auto row = [&](const std::string& k, const std::string& v) { out += "<tr><th>" + html_escape(k) + "</th>" + td(v) + "</tr>"; };
  row("version", p.version + (p.git_commit.empty() ? "" : " (" + p.git_commit + ")"));
  row("command", argv);
  row("ranks", std::to_string(p.hosts.size()) + " on " + std::to_string(p.ranks_per_node.size()) + " nodes");
  row("hosts", host_text);
  row("time", p.start_time + (p.end_time.empty() ? "" : " to " + p.end_time));
  row("libraries", "MPI " + p.mpi_version + "; hwloc " + p.hwloc_version +
                       (p.cuda_version.empty() ? "" : "; CUDA " + p.cuda_version) +
                       (p.nccl_version.empty() ? "" : "; NCCL " + p.nccl_version));
  row("reduction", p.reduction + " across ranks");
  row("units", "GB/s = 1e9 B/s, Gb/s = 1e9 bit/s, times in microseconds; efficiency = figure / ceiling");
  return out + "</table>";
}

std::string html_findings(const Report& rep) {
  std::string items;
  if (rep.findings.is_array())
    for (const auto& f : rep.findings)
      items += "<li><b>" + html_escape(jsonx::string(f, "severity").value_or("note")) + "</b>: " +
               html_escape(jsonx::string(f, "message").value_or(f.dump())) + "</li>";
  const auto explain = records_to_explain(rep);
  for (size_t i = 0; i < explain.size() && i < kFindingsShown; ++i) {
    const Record* r = explain[i];
    items += "<li><b>" + html_escape(r->suite + " " + r->name + (r->variant.empty() ? "" : " " + r->variant)) +
             "</b>" + html_escape((r->bytes > 0 ? " at " + format_bytes(r->bytes) : "") + " on " + r->host) + ": " +
             html_escape(ceiling_view(*r).explanation) + "</li>";
  }
  if (explain.size() > kFindingsShown)
    items += "<li>... and " + std::to_string(explain.size() - kFindingsShown) +
             " more (every explanation is in report.json)</li>";
  return items.empty() ? "" : "<h2>Findings</h2><ul>" + items + "</ul>";
}

// The charts, each kind under its own heading (ids for links and the browser tests), then one line
// for every chart left out and why.
std::string charts(const Report& rep) {
  std::string out;
  std::vector<std::string> omitted;
  auto section = [&](const char* id, const std::string& title, const std::string& body) {
    if (!body.empty()) out += "<h3 id=\"" + std::string(id) + "\">" + html_escape(title) + "</h3>" + body;
  };
  auto row = [](const std::vector<std::string>& svgs, const char* extra_class = "") {
    std::string r;
    for (const auto& s : svgs) r += s;
    return r.empty() ? r : "<div class=\"charts" + std::string(extra_class) + "\">" + r + "</div>";
  };
  auto note = [](const std::string& text) { return "<p class=\"chart-note\">" + html_escape(text) + "</p>"; };
  auto lines = [&](const Drawn<LineChart>& d) {
    std::vector<std::string> v;
    for (const auto& c : d.charts) v.push_back(svg_line_chart(c));
    omitted.insert(omitted.end(), d.omitted.begin(), d.omitted.end());
    return row(v);
  };
  section("chart-sizes", "Bandwidth vs message size", lines(size_charts(rep)));
  section("chart-scaling", "Scaling with node count", lines(scaling_charts(rep)));
  const auto pairs = pair_heatmaps(rep);
  std::vector<std::string> v;
  for (const auto& h : pairs.charts) v.push_back(svg_heatmap(h));
  omitted.insert(omitted.end(), pairs.omitted.begin(), pairs.omitted.end());
  section("pair-matrix", "Host pair matrix", row(v));
  const auto timelines = timeline_charts(rep);
  std::string groups;
  for (const auto& g : timelines.groups) {
    v.clear();
    for (const auto& p : g.panels) v.push_back(svg_timeline_panel(p));
    groups += "<h4>" + html_escape(g.title) + "</h4>" + row(v, " small") + (g.note.empty() ? "" : note(g.note));
  }
  omitted.insert(omitted.end(), timelines.omitted.begin(), timelines.omitted.end());
  section("timeline", "Stability timeline", groups.empty() ? groups : note(timelines.legend) + groups);
  v.clear();
  for (const auto& m : topology_charts(rep)) v.push_back(svg_category_matrix(m));
  section("chart-paths", "GPU and NIC path classes", row(v));
  for (const auto& o : omitted) out += "<p class=\"omitted\">Not drawn: " + html_escape(o) + ".</p>";
  return out.empty() ? "" : "<h2 id=\"charts\">Charts</h2>" + out;
}

std::string sweep_table(const SweepGroup& g, HtmlDerivations& d, double threshold) {
  std::string out =
      "<table><tr><th>size</th><th>count</th><th>type</th><th>redop</th><th>time (us)</th><th>algbw (GB/s)</th>"
      "<th>busbw (GB/s)</th><th>#wrong</th><th>p50 (us)</th><th>p99 (us)</th><th>cv</th><th>ceiling</th><th>eff</th>"
      "<th>status</th></tr>";
  for (const Record* r : g.rows) {
    const auto c = ceiling_view(*r);
    const bool ok = r->status == Status::passed;
    out += "<tr class=\"" + to_string(r->status) + "\">" + td(format_bytes(r->bytes), true) +
           td(std::to_string(r->count), true) + td(r->dtype) + td(r->op) +
           td(ok ? format_fixed(r->time_us.mean, 2) : "", true) + td(ok ? format_figure(r->algbw_GBps) : "", true) +
           td(ok ? format_figure(r->busbw_GBps) : "", true) + td(std::to_string(r->wrong), true) +
           td(ok ? format_fixed(r->time_us.p50, 2) : "", true) + td(ok ? format_fixed(r->time_us.p99, 2) : "", true) +
           td(ok ? format_fixed(r->time_us.cv, 3) : "", true) + d.cite(c) + eff_cell(c, threshold) +
           td_wrap(to_string(r->status) + (r->reason.empty() ? "" : ": " + r->reason)) + "</tr>";
  }
  return out + "</table>";
}

// A family of many per-rank sweeps: one row per size across ranks, then its slowest sweeps in full.
std::string family_summary(const SweepFamily& f, HtmlDerivations& d, double threshold) {
  const auto rows = family_rows(f);
  std::string unit;
  for (const auto& r : rows)
    if (!r.unit.empty()) unit = r.unit;
  const std::string u = unit.empty() ? "" : " (" + unit + ")";
  std::string out = "<details open><summary>" +
                    html_escape(f.title + ": " + std::to_string(f.groups.size()) + " sweeps, one per rank") +
                    "</summary><table><tr><th>size</th><th>count</th><th>type</th><th>redop</th><th>sweeps</th><th>min" +
                    html_escape(u) + "</th><th>median" + html_escape(u) + "</th><th>max" + html_escape(u) +
                    "</th><th>slowest</th><th>ceiling</th><th>eff (median)</th></tr>";
  for (const auto& r : rows) {
    const bool any = r.n > 0;
    CeilingView median_view;
    median_view.efficiency = r.median_efficiency;
    out += "<tr>" + td(format_bytes(r.first->bytes), true) + td(std::to_string(r.first->count), true) +
           td(r.first->dtype) + td(r.first->op) + td(std::to_string(r.n), true) +
           td(any ? format_figure(r.min) : "", true) + td(any ? format_figure(r.median) : "", true) +
           td(any ? format_figure(r.max) : "", true) +
           td(r.slowest ? r.slowest->host + " rank " + std::to_string(r.slowest->rank) : "") +
           (r.ceiling ? d.cite(*r.ceiling) : "<td></td>") + eff_cell(median_view, threshold) + "</tr>";
  }
  out += "</table>";
  for (const SweepGroup* g : family_slowest(f, kFamilySlowestShown))
    out += "<p><b>Slow: " + html_escape(g->title()) + "</b></p>" + sweep_table(*g, d, threshold);
  return out + "</details>";
}

std::string sweeps(const Report& rep, HtmlDerivations& d, double threshold) {
  const auto groups = sweep_groups(rep);
  const auto families = sweep_families(groups);
  std::string out;
  for (const auto& f : families) {
    if (f.groups.size() > kFamilyDetailLimit) {
      out += family_summary(f, d, threshold);
      continue;
    }
    for (const SweepGroup* g : f.groups)
      out += std::string("<details") + (groups.size() <= 6 ? " open" : "") + "><summary>" + html_escape(g->title()) +
             "</summary>" + sweep_table(*g, d, threshold) + "</details>";
  }
  return out.empty() ? "" : "<h2>Sweeps</h2>" + out;
}

std::string points(const Report& rep, HtmlDerivations& d, double threshold) {
  std::string rows;
  for (const Record* r : point_records(rep)) {
    const auto c = ceiling_view(*r);
    std::string note = r->reason;
    auto add = [&note](std::string_view s) { note.append(note.empty() ? "" : "; ").append(s); };
    if (!c.known && !c.reason.empty() && r->status != Status::skipped) add(c.reason);
    if (!c.explanation.empty()) add(c.explanation);
    if (r->time_us.samples > 0 && !record_figure(*r))
      note += (note.empty() ? "" : "; ") + std::string("p50 ") + format_fixed(r->time_us.p50, 2) + " us, p99 " +
              format_fixed(r->time_us.p99, 2) + " us";
    rows += "<tr class=\"" + to_string(r->status) + "\">" + td(r->suite) + td(r->name) + td(r->variant) + td(r->host) +
            td(std::to_string(r->rank), true) + td(to_string(r->status)) + td(figure_text(*r), true) + d.cite(c) +
            eff_cell(c, threshold) + td_wrap(note) + "</tr>";
  }
  if (rows.empty()) return "";
  return "<h2>Other figures</h2><table><tr><th>suite</th><th>name</th><th>variant</th><th>host</th><th>rank</th>"
         "<th>status</th><th>figure</th><th>ceiling</th><th>eff</th><th>notes</th></tr>" +
         rows + "</table>";
}

}  // namespace

std::string render_html(const Report& rep) {
  const auto* a = jsonx::object_at(rep.extra, "analysis");
  const double threshold = a ? jsonx::number(*a, "threshold").value_or(0.8) : 0.8;
  HtmlDerivations d;
  std::string body = verdict_header(rep) + problems_html(rep) + "<main>" + provenance(rep);
  body += acceptance_html(rep);  // acceptance verdicts and baseline comparison
  body += training::training_html(rep);  // training impact (report/training_render.hpp)
  body += html_findings(rep) + charts(rep);
  body += sweeps(rep, d, threshold);
  body += points(rep, d, threshold);
  if (!d.empty()) body += "<h2>Ceilings</h2>" + d.render();
  return std::string("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                     "style-src 'unsafe-inline'\">"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                     "<title>gpunet-bench report</title><style>") +
         kStyle + "</style></head><body>" + body + "</main></body></html>\n";
}

}  // namespace gpunet::report
