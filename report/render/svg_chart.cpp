#include "report/render/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/text/escape.hpp"
#include "report/render/svg_common.hpp"

namespace gpunet::report {

namespace {

constexpr double kChartW = 570, kChartLeft = 64, kChartRight = 20, kChartTop = 34, kChartPlotH = 246;
constexpr double kChartPlotW = kChartW - kChartLeft - kChartRight;
constexpr double kLegendRow = 16;
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
                                    "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79"};
constexpr const char* kCeilingColour = "#b00020";

std::string axis_tick(double x, AxisFormat f) {
  if (f == AxisFormat::bytes) return svg::tick_bytes(x);
  return f == AxisFormat::seconds ? svg::tick_seconds(x) : svg::tick_number(x);
}

}  // namespace

std::string svg_line_chart(const LineChart& c) {
  using svg::num;
  auto tx = [&](double x) { return c.log2_x ? std::log2(std::max(x, 1e-300)) : x; };
  double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
  for (const auto& s : c.series) {
    for (const auto& [x, y] : s.points) {
      if (c.log2_x && x <= 0) continue;
      xmin = std::min(xmin, tx(x));
      xmax = std::max(xmax, tx(x));
      ymax = std::max(ymax, y);
    }
    for (const auto& [lo, hi] : s.band) ymax = std::max(ymax, hi);
  }
  for (const auto& l : c.ceilings) ymax = std::max(ymax, l.y);
  if (!(xmin <= xmax)) {
    xmin = 0;
    xmax = 1;
  }
  if (xmin == xmax) {
    xmin -= 1;
    xmax += 1;
  }
  if (!(ymax > 0) || !std::isfinite(ymax)) ymax = 1;
  // Figures that span more than a factor 20 (shared memory next to a 1 Gb/s link) get a log y axis.
  double ymin = INFINITY;
  for (const auto& s : c.series)
    for (const auto& [x, y] : s.points)
      if (y > 0) ymin = std::min(ymin, y);
  for (const auto& l : c.ceilings)
    if (l.y > 0) ymin = std::min(ymin, l.y);
  const bool log_y = std::isfinite(ymin) && ymax / ymin > 20;
  const double ylo = log_y ? std::floor(std::log10(ymin)) : 0;
  double yhi = log_y ? std::ceil(std::log10(ymax * 1.05)) : 0;
  if (log_y && yhi <= ylo) yhi = ylo + 1;
  const double ystep = svg::nice_step(ymax * 1.05, 5);
  const double ytop = std::ceil(ymax * 1.05 / ystep) * ystep;

  // The title and the legend wrap to the chart's width; the chart grows to hold them.
  const auto title = svg::wrap_words(c.title, static_cast<size_t>((kChartW - 20) / 8));
  const double top = kChartTop + 17 * static_cast<double>(title.size() - 1);
  struct Entry {
    std::string colour;
    bool dashed;
    std::vector<std::string> lines;
  };
  std::vector<Entry> entries;
  const size_t legend_chars = svg::chars_in(kChartW - kChartLeft - 40);
  for (const auto& l : c.ceilings) entries.push_back({kCeilingColour, true, svg::wrap_words(l.label, legend_chars)});
  for (size_t i = 0; i < c.series.size(); ++i)
    entries.push_back({c.series[i].dashed ? kCeilingColour : kPalette[i % std::size(kPalette)], c.series[i].dashed,
                       svg::wrap_words(c.series[i].label, legend_chars)});
  double legend_h = 0;
  for (const auto& e : entries) legend_h += kLegendRow * static_cast<double>(e.lines.size());
  const double plot_bottom = top + kChartPlotH;
  const double height = plot_bottom + 50 + legend_h + 6;

  auto px = [&](double x) { return kChartLeft + (tx(x) - xmin) / (xmax - xmin) * kChartPlotW; };
  auto py = [&](double y) {
    const double f = log_y ? (std::log10(std::max(y, std::pow(10.0, ylo))) - ylo) / (yhi - ylo) : y / ytop;
    return plot_bottom - std::clamp(f, 0.0, 1.0) * kChartPlotH;
  };
  std::vector<double> yticks;
  if (log_y)
    for (double e = ylo; e <= yhi; ++e) yticks.push_back(std::pow(10.0, e));
  else
    for (double y = 0; y <= ytop * 1.0001; y += ystep) yticks.push_back(y);

  std::string out = svg::open(kChartW, height, title, "chart line");
  out += "<rect x=\"" + num(kChartLeft) + "\" y=\"" + num(top) + "\" width=\"" + num(kChartPlotW) + "\" height=\"" +
         num(kChartPlotH) + "\" class=\"plot\"/>";
  for (double y : yticks) {
    out += "<line x1=\"" + num(kChartLeft) + "\" x2=\"" + num(kChartLeft + kChartPlotW) + "\" y1=\"" + num(py(y)) +
           "\" y2=\"" + num(py(y)) + "\" class=\"grid\"/><text x=\"" + num(kChartLeft - 6) + "\" y=\"" +
           num(py(y) + 4) + "\" text-anchor=\"end\" class=\"tick\">" + html_escape(svg::tick_number(y)) + "</text>";
  }
  // x ticks: powers of two (every other one when many) on a log axis, nice steps on a linear one.
  std::vector<double> xticks;
  if (c.log2_x) {
    const double span = std::floor(xmax) - std::ceil(xmin);
    const int stride = std::max(1, static_cast<int>(std::ceil((span + 1) / 9)));
    for (double e = std::ceil(xmin); e <= xmax; e += stride) xticks.push_back(std::exp2(e));
  } else {
    const double step = c.integer_x ? std::max(1.0, svg::nice_step(xmax - xmin, 8)) : svg::nice_step(xmax - xmin, 8);
    for (double x = std::ceil(xmin / step) * step; x <= xmax + step * 1e-9; x += step) xticks.push_back(x);
  }
  for (double x : xticks)
    out += "<line x1=\"" + num(px(x)) + "\" x2=\"" + num(px(x)) + "\" y1=\"" + num(top) + "\" y2=\"" +
           num(plot_bottom) + "\" class=\"grid\"/><text x=\"" + num(px(x)) + "\" y=\"" + num(plot_bottom + 16) +
           "\" text-anchor=\"middle\" class=\"tick\">" + html_escape(axis_tick(x, c.x_format)) + "</text>";
  out += "<text x=\"" + num(kChartLeft + kChartPlotW / 2) + "\" y=\"" + num(plot_bottom + 36) +
         "\" text-anchor=\"middle\" class=\"axis\">" + html_escape(c.x_label) + "</text><text transform=\"translate(16 " +
         num(top + kChartPlotH / 2) + ") rotate(-90)\" text-anchor=\"middle\" class=\"axis\">" +
         html_escape(c.y_label + (log_y ? ", log scale" : "")) + "</text>";

  for (const auto& l : c.ceilings)
    out += "<line x1=\"" + num(kChartLeft) + "\" x2=\"" + num(kChartLeft + kChartPlotW) + "\" y1=\"" + num(py(l.y)) +
           "\" y2=\"" + num(py(l.y)) + "\" stroke=\"" + kCeilingColour +
           "\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>";
  for (size_t i = 0; i < c.series.size(); ++i) {
    const auto& s = c.series[i];
    const std::string colour = s.dashed ? kCeilingColour : kPalette[i % std::size(kPalette)];
    if (!s.band.empty() && s.band.size() == s.points.size()) {
      std::string pts;
      for (size_t k = 0; k < s.points.size(); ++k) pts += num(px(s.points[k].first)) + "," + num(py(s.band[k].second)) + " ";
      for (size_t k = s.points.size(); k-- > 0;) pts += num(px(s.points[k].first)) + "," + num(py(s.band[k].first)) + " ";
      out += "<polygon points=\"" + pts + "\" fill=\"" + colour + "\" fill-opacity=\"0.18\" stroke=\"none\"/>";
    }
    std::string pts;
    for (const auto& [x, y] : s.points)
      if (!c.log2_x || x > 0) pts += num(px(x)) + "," + num(py(y)) + " ";
    out += "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"2\"" +
           (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>";
    if (!s.dashed && s.points.size() <= 64)
      for (const auto& [x, y] : s.points)
        if (!c.log2_x || x > 0)
          out += "<circle cx=\"" + num(px(x)) + "\" cy=\"" + num(py(y)) + "\" r=\"2.5\" fill=\"" + colour + "\"/>";
  }
  // The legend under the plot: every label whole, wrapped.
  double ly = plot_bottom + 58;
  for (const auto& e : entries) {
    out += "<line x1=\"" + num(kChartLeft) + "\" x2=\"" + num(kChartLeft + 22) + "\" y1=\"" + num(ly - 4) + "\" y2=\"" +
           num(ly - 4) + "\" stroke=\"" + e.colour + "\" stroke-width=\"2\"" +
           (e.dashed ? " stroke-dasharray=\"5 3\"" : "") + "/>";
    out += svg::text_lines(kChartLeft + 28, ly, kLegendRow, e.lines, "legend");
    ly += kLegendRow * static_cast<double>(e.lines.size());
  }
  return out + "</svg>";
}

}  // namespace gpunet::report
