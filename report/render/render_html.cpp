// report.html: one self-contained page. No script, no external resource (a Content-Security-Policy
// forbids both), inline SVG charts, the overall verdict at the top. Every string is escaped.
#include <map>

#include "report/judge/culprits.hpp"
#include "report/analysis/analysis.hpp"
#include "report/text/escape.hpp"
#include "report/render/chart_sections.hpp"
#include "report/model/json_access.hpp"
#include "report/judge/host_load.hpp"
#include "report/judge/networks.hpp"
#include "report/render/renderers.hpp"
#include "report/render/section_render.hpp"
#include "report/analysis/sections.hpp"
#include "report/document/section_order.hpp"
#include "report/document/suite_times.hpp"
#include "report/document/table_model.hpp"
#include "report/render/table_render.hpp"
#include "report/text/text_format.hpp"
#include "report/render/training_render.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/judge/verdicts_outputs.hpp"

namespace gpunet::report {

namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
main{max-width:1200px;margin:0 auto;padding:0 20px 40px}
header.verdict{padding:18px 20px;color:#fff}
header.PASS{background:#2e7d32}header.WARN{background:#b26a00}header.FAIL{background:#b00020}
header.INCOMPLETE{background:#555}
header h1{margin:0;font-size:28px}header p{margin:4px 0 0;font-size:15px}
h2{margin-top:28px;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0;background:#fff;font-size:13px}
table{display:block;max-width:100%;overflow-x:auto}
th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top;overflow-wrap:break-word}
td:last-child{overflow-wrap:anywhere}
td.n{white-space:nowrap}
td.w{white-space:normal;min-width:12em;max-width:32em;overflow-wrap:anywhere}
p.note{margin:2px 0;color:#555;font-size:13px}
p.footer{margin:0;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.failed td,tr.timed_out td{background:#fdecea}tr.skipped td{color:#777}
.low{color:#b00020;font-weight:600}.ok{color:#2e7d32}.above{color:#6a1b9a;font-weight:600}
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
div.prominent{margin:16px 20px 0;padding:2px 16px 8px;background:#fff;border:1px solid #ddd;border-left:5px solid #b00020}
div.prominent h2{margin-top:10px}
pre{font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%}
)";

// The run's one verdict (report/judge/run_verdict.hpp): its colour and its reasons, first on the page.
std::string verdict_header(const RunVerdict& v) {
  const std::string verdict = to_string(v.outcome);
  std::string out = "<header class=\"verdict " + verdict + "\"><h1>gpunet-bench: " + html_escape(verdict) + "</h1>";
  for (const auto& reason : v.reasons) out += "<p>" + html_escape(reason) + "</p>";
  return out + "</header>";
}

// The charts, each kind under its own heading (ids for links and the browser tests), then one line
// for every chart left out and why.
std::string charts_html(const ChartSections& drawn) {
  std::string out;
  for (const auto& s : drawn.sections) out += "<h3 id=\"" + s.id + "\">" + html_escape(s.title) + "</h3>" + s.html;
  for (const auto& o : drawn.omitted) out += "<p class=\"omitted\">Not drawn: " + html_escape(o) + ".</p>";
  return out.empty() ? "" : "<h2 id=\"charts\">Charts</h2>" + out;
}

// Every table of the model after the summary; a kind's tables under one heading.
std::string tables(const std::vector<Table>& all, CeilingNotes& notes, double threshold) {
  std::string out, section;
  for (const auto& t : all) {
    const std::string body = table_html(t, notes, threshold);
    if (body.empty()) continue;
    const std::string heading = section_title(t.kind);
    if (section != heading) {
      section = heading;
      out += "<h2>" + html_escape(heading) + "</h2>";
    }
    out += body;
  }
  return out;
}


std::string html_ceilings(const CeilingNotes& notes) {
  if (notes.empty()) return "";
  std::string out = "<h2>Ceilings</h2><ol class=\"ceil\">";
  for (size_t i = 0; i < notes.all().size(); ++i)
    out += "<li id=\"c" + std::to_string(i + 1) + "\">" + html_escape(notes.all()[i]) + "</li>";
  return out + "</ol>";
}

// One section in HTML; `notes` gathers the ceilings the tables cite, in the order they are laid out.
std::string html_section(SectionKind k, const Report& rep, const DocumentParts& parts, double threshold, CeilingNotes& notes) {
  switch (k) {
    case SectionKind::verdict: return verdict_header(parts.judgement.verdict);
    case SectionKind::problems: return section_html(parts.problems, notes, threshold);
    case SectionKind::acceptance: return section_html(parts.acceptance, notes, threshold);
    case SectionKind::summary: return table_html(parts.summary, notes, threshold, "h2");
    case SectionKind::run: return section_html(parts.run, notes, threshold);
    case SectionKind::networks: return section_html(parts.networks, notes, threshold);
    case SectionKind::training: return section_html(parts.training, notes, threshold, training::training_charts_html(rep));
    case SectionKind::findings: return section_html(parts.findings, notes, threshold);
    case SectionKind::charts: return charts_html(parts.charts);
    case SectionKind::tables: return tables(parts.tables, notes, threshold);
    case SectionKind::topology: return section_html(parts.topology, notes, threshold);
    case SectionKind::ceilings: return html_ceilings(notes);
  }
  return "";
}

}  // namespace

std::string render_html(const Report& rep, const DocumentParts& parts) {
  const auto* a = jsonx::object_at(rep.extra, "analysis");
  const double threshold = a ? jsonx::number(*a, "threshold").value_or(0.8) : 0.8;
  CeilingNotes notes;
  std::string body;
  for (const auto k : kDocumentHead) body += html_section(k, rep, parts, threshold, notes);
  body += "<main>";
  for (const auto k : kDocumentBody) body += html_section(k, rep, parts, threshold, notes);
  return std::string("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                     "style-src 'unsafe-inline'\">"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                     "<title>gpunet-bench report</title><style>") +
         kStyle + "</style></head><body>" + body + "</main></body></html>\n";
}

std::string render_html(const Report& rep) { return render_html(rep, document_parts(rep)); }

}  // namespace gpunet::report
