// The pair heatmap and the categorical topology matrix (declared in svg_chart.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/text/escape.hpp"
#include "report/render/svg_chart.hpp"
#include "report/render/svg_common.hpp"
#include "report/render/svg_heatmap_blocks.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

namespace {

constexpr double kHeatLeft = 124, kHeatTop = 124, kHeatMinWidth = 540;
constexpr const char* kNotMeasured = "#f3f3f3";
constexpr const char* kDiagonal = "#dddddd";
constexpr const char* kFailed = "#9e9e9e";
constexpr const char* kAboveCeiling = "hsl(275,45%,70%)";

std::string label_cut(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(0, n - 1) + "~"; }

std::string attr_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// One swatch of the legend and its text.
std::string swatch(double x, double y, const char* fill, const std::string& text) {
  return "<rect x=\"" + svg::num(x) + "\" y=\"" + svg::num(y - 10) + "\" width=\"12\" height=\"12\" fill=\"" + fill +
         "\"/><text x=\"" + svg::num(x + 17) + "\" y=\"" + svg::num(y) + "\" class=\"legend\">" + html_escape(text) +
         "</text>";
}

}  // namespace

std::string heat_colour(const HeatmapCell& c, double threshold, bool diagonal) {
  if (!c.measured) return diagonal ? kDiagonal : kNotMeasured;
  if (!c.value) return kFailed;
  if (c.above_ceiling && !c.blamed) return kAboveCeiling;
  const double r = c.vs_reference;
  double hue;
  if (c.good)  // 90 (yellow-green) at the threshold to 125 (green) at the reference
    hue = 90 + 35 * std::clamp((r - threshold) / std::max(1 - threshold, 1e-9), 0.0, 1.0);
  else  // 0 (red) at half the reference or less to 40 (orange) just below the threshold
    hue = 40 * std::clamp((r - 0.5) / std::max(threshold - 0.5, 1e-9), 0.0, 1.0);
  return "hsl(" + svg::num(hue) + ",70%,55%)";
}

std::string svg_heatmap(const Heatmap& h) {
  using svg::num;
  const size_t n = h.labels.size();
  const bool blocks = n > kMaxDrawnSide;
  const double cell = blocks ? 0 : std::clamp(560.0 / static_cast<double>(std::max<size_t>(n, 1)), 4.0, 64.0);
  const double grid = blocks ? 640 : cell * static_cast<double>(n);
  const double w = std::max(kHeatLeft + grid + 20, kHeatMinWidth);
  const auto title = svg::wrap_words(h.title, static_cast<size_t>((w - 20) / 8));
  const double top = kHeatTop + 17 * static_cast<double>(title.size() - 1);
  std::vector<std::string> legend;
  for (const auto& sentence : h.legend)
    for (auto& l : svg::wrap_words(sentence, svg::chars_in(w - 20))) legend.push_back(std::move(l));
  const double swatches_y = top + grid + 24;
  const double height = swatches_y + 22 + 15 * static_cast<double>(legend.size()) + 6;

  std::string out = svg::open(w, height, title, "chart heatmap");
  const bool two_lines = cell >= 44, value_only = cell >= 30, labels = cell >= 10;
  if (blocks) out += svg_heatmap_blocks(h, {kHeatLeft, top, grid});
  for (size_t i = 0; i < (blocks ? 0 : n); ++i) {
    const double y = top + cell * static_cast<double>(i);
    if (labels) {
      out += "<text x=\"" + num(kHeatLeft - 6) + "\" y=\"" + num(y + cell / 2 + 4) +
             "\" text-anchor=\"end\" class=\"tick\">" + html_escape(label_cut(h.labels[i], 17)) + "</text>";
      out += "<text transform=\"translate(" + num(kHeatLeft + cell * static_cast<double>(i) + cell / 2 + 4) + " " +
             num(top - 6) + ") rotate(-60)\" class=\"tick\">" + html_escape(label_cut(h.labels[i], 17)) + "</text>";
    }
    for (size_t j = 0; j < n; ++j) {
      const HeatmapCell& c = h.cells[i][j];
      const double x = kHeatLeft + cell * static_cast<double>(j);
      const std::string rect = "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(cell - 1) +
                               "\" height=\"" + num(cell - 1) + "\" fill=\"" + heat_colour(c, h.threshold, i == j) +
                               "\"/>";
      if (!c.measured) {
        out += rect;
        continue;
      }
      std::string tip = h.labels[i] + " -> " + h.labels[j] + ": ";
      std::string attrs = " data-src=\"" + html_escape(h.labels[i]) + "\" data-dst=\"" + html_escape(h.labels[j]) +
                          "\" data-unit=\"" + html_escape(h.unit) + "\"";
      if (c.value) {
        tip += svg::value_text(*c.value) + " " + h.unit + ", " + format_percent(c.vs_reference) + " of " +
               svg::value_text(h.reference) + " " + h.unit + " (the reference)";
        if (c.efficiency) tip += ", " + format_percent(*c.efficiency) + " of its own link's ceiling";
        attrs += " data-value=\"" + attr_number(*c.value) + "\" data-vs-reference=\"" + attr_number(c.vs_reference) + "\"";
        if (c.efficiency) attrs += " data-efficiency=\"" + attr_number(*c.efficiency) + "\"";
      } else {
        tip += "did not complete" + (c.note.empty() ? std::string() : ": " + c.note);
      }
      if (c.blamed) tip += "; named slow in What is wrong";
      else if (c.above_ceiling) tip += "; above its ceiling: a ceiling to explain, not a good figure";
      const char* verdict = !c.value ? "failed" : c.good ? "good" : c.above_ceiling && !c.blamed ? "above" : "bad";
      out += std::string("<g class=\"pair ") + verdict + "\"" + attrs + "><title>" + html_escape(tip) + "</title>" + rect;
      if (c.value && value_only) {
        out += "<text x=\"" + num(x + cell / 2) + "\" y=\"" + num(y + cell / 2 + (two_lines && c.efficiency ? -2 : 4)) +
               "\" text-anchor=\"middle\" class=\"cell\">" + html_escape(svg::value_text(*c.value)) + "</text>";
        if (two_lines && c.efficiency)
          out += "<text x=\"" + num(x + cell / 2) + "\" y=\"" + num(y + cell / 2 + 11) +
                 "\" text-anchor=\"middle\" class=\"cell eff\">" + html_escape(format_percent(*c.efficiency)) + "</text>";
      } else if (!c.value && value_only) {
        out += "<text x=\"" + num(x + cell / 2) + "\" y=\"" + num(y + cell / 2 + 4) +
               "\" text-anchor=\"middle\" class=\"cell\">failed</text>";
      }
      out += "</g>";
    }
  }
  HeatmapCell good{true, 1.0, std::nullopt, 1.0, true, {}, false, false}, bad{true, 0.3, std::nullopt, 0.3, false, {}, false, false};
  const std::string good_fill = heat_colour(good, h.threshold, false), bad_fill = heat_colour(bad, h.threshold, false);
  const std::string pct = format_percent(h.threshold);
  out += swatch(10, swatches_y, good_fill.c_str(), "good: >= " + pct + " of the reference");
  out += swatch(220, swatches_y, bad_fill.c_str(), "bad: below " + pct + " (red at <= 50%)");
  out += swatch(w - 75, swatches_y, kFailed, "failed");
  out += svg::text_lines(10, swatches_y + 22, 15, legend, "legend");
  return out + "</svg>";
}

std::string svg_category_matrix(const CategoryMatrix& m) {
  using svg::num;
  auto colour = [](const std::string& c) -> std::string {
    if (c == "X") return "#cccccc";
    if (c.rfind("NV", 0) == 0) return "#4caf50";
    if (c == "PIX") return "#8bc34a";
    if (c == "PXB") return "#cddc39";
    if (c == "PHB") return "#ffc107";
    if (c == "NODE") return "#ff9800";
    if (c == "SYS" || c == "SOC") return "#f44336";
    return "#eeeeee";
  };
  const size_t n = m.labels.size();
  const double cell = std::clamp(480.0 / static_cast<double>(std::max<size_t>(n, 1)), 14.0, 48.0);
  const double left = 110, top = 90;
  const double w = std::max(left + cell * static_cast<double>(n) + 20, 300.0), h = top + cell * static_cast<double>(n) + 20;
  std::string out = svg::open(w, h, svg::wrap_words(m.title, static_cast<size_t>((w - 20) / 8)), "chart topo");
  for (size_t i = 0; i < n; ++i) {
    const double y = top + cell * static_cast<double>(i);
    out += "<text x=\"" + num(left - 6) + "\" y=\"" + num(y + cell / 2 + 4) + "\" text-anchor=\"end\" class=\"tick\">" +
           html_escape(label_cut(m.labels[i], 14)) + "</text>";
    out += "<text transform=\"translate(" + num(left + cell * static_cast<double>(i) + cell / 2 + 4) + " " +
           num(top - 6) + ") rotate(-60)\" class=\"tick\">" + html_escape(label_cut(m.labels[i], 14)) + "</text>";
    for (size_t j = 0; j < n; ++j) {
      const double x = left + cell * static_cast<double>(j);
      out += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(cell - 1) + "\" height=\"" + num(cell - 1) +
             "\" fill=\"" + colour(m.cells[i][j]) + "\"/>";
      if (cell >= 26)
        out += "<text x=\"" + num(x + cell / 2) + "\" y=\"" + num(y + cell / 2 + 4) +
               "\" text-anchor=\"middle\" class=\"cell\">" + html_escape(label_cut(m.cells[i][j], 5)) + "</text>";
    }
  }
  return out + "</svg>";
}

}  // namespace gpunet::report
