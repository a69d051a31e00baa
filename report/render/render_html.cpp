// report.html: one self-contained page. No script, no external resource (a Content-Security-Policy
// forbids both), inline SVG charts, the overall verdict at the top. The document's sections
// (document_parts.hpp) laid out in turn (section_render.hpp); every string is escaped there.
#include "report/render/document_parts.hpp"
#include "report/render/renderers.hpp"
#include "report/render/section_render.hpp"

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
td.w{white-space:normal;max-width:32em;overflow-wrap:anywhere}
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

}  // namespace

std::string render_html(const DocumentParts& parts) {
  return std::string("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                     "style-src 'unsafe-inline'\">"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                     "<title>gpunet-bench report</title><style>") +
         kStyle + "</style></head><body>" + section_html(parts.head, parts.threshold) + "<main>" +
         section_html(parts.body, parts.threshold) + "</main></body></html>\n";
}

std::string render_html(const Report& rep) { return render_html(document_parts(rep)); }

}  // namespace gpunet::report
