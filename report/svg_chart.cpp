#include "report/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/escape.hpp"
#include "report/text_format.hpp"

namespace gpunet::report {

namespace {

constexpr double kW = 570, kH = 330, kLeft = 64, kRight = 168, kTop = 34, kBottom = 50;
constexpr double kPlotW = kW - kLeft - kRight, kPlotH = kH - kTop - kBottom;
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
                                    "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79"};
constexpr const char* kCeilingColour = "#b00020";

std::string f1(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

std::string short_text(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(0, n - 1) + "~"; }

double nice_step(double range, int target) {
  const double raw = range / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

std::string compact_bytes(double bytes) {
  std::string s = format_bytes(static_cast<int64_t>(std::llround(bytes)));
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  if (s.size() > 3 && s.compare(s.size() - 2, 2, "iB") == 0) s.erase(s.size() - 2);  // 64MiB -> 64M
  return s;
}

std::string tick_label(double x, AxisFormat f) {
  char buf[32];
  if (f == AxisFormat::bytes) return compact_bytes(x);
  std::snprintf(buf, sizeof buf, f == AxisFormat::seconds ? "%gs" : "%g", x);
  return buf;
}

double title_width(const std::string& title) { return 7.5 * static_cast<double>(title.size()) + 40; }

std::string svg_open(double w, double h, const std::string& title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 " + f1(w) + " " + f1(h) +
         "\" width=\"" + f1(w) + "\" height=\"" + f1(h) + "\" role=\"img\"><title>" + html_escape(title) +
         "</title><text x=\"" + f1(w / 2) + "\" y=\"20\" text-anchor=\"middle\" class=\"ct\">" + html_escape(title) +
         "</text>";
}

}  // namespace

std::string svg_line_chart(const LineChart& c) {
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
  const double ystep = nice_step(ymax * 1.05, 5);
  const double ytop = std::ceil(ymax * 1.05 / ystep) * ystep;
  auto px = [&](double x) { return kLeft + (tx(x) - xmin) / (xmax - xmin) * kPlotW; };
  auto py = [&](double y) {
    const double f = log_y ? (std::log10(std::max(y, std::pow(10.0, ylo))) - ylo) / (yhi - ylo) : y / ytop;
    return kTop + kPlotH - std::clamp(f, 0.0, 1.0) * kPlotH;
  };
  std::vector<double> yticks;
  if (log_y)
    for (double e = ylo; e <= yhi; ++e) yticks.push_back(std::pow(10.0, e));
  else
    for (double y = 0; y <= ytop * 1.0001; y += ystep) yticks.push_back(y);

  std::string out = svg_open(kW, kH, c.title);
  out += "<rect x=\"" + f1(kLeft) + "\" y=\"" + f1(kTop) + "\" width=\"" + f1(kPlotW) + "\" height=\"" + f1(kPlotH) +
         "\" class=\"plot\"/>";
  for (double y : yticks) {
    out += "<line x1=\"" + f1(kLeft) + "\" x2=\"" + f1(kLeft + kPlotW) + "\" y1=\"" + f1(py(y)) + "\" y2=\"" +
           f1(py(y)) + "\" class=\"grid\"/><text x=\"" + f1(kLeft - 6) + "\" y=\"" + f1(py(y) + 4) +
           "\" text-anchor=\"end\" class=\"tick\">" + html_escape(tick_label(y, AxisFormat::number)) + "</text>";
  }
  // x ticks: powers of two (every other one when many) on a log axis, nice steps on a linear one.
  std::vector<double> xticks;
  if (c.log2_x) {
    const double span = std::floor(xmax) - std::ceil(xmin);
    const int stride = std::max(1, static_cast<int>(std::ceil((span + 1) / 9)));
    for (double e = std::ceil(xmin); e <= xmax; e += stride) xticks.push_back(std::exp2(e));
  } else {
    const double step = c.integer_x ? std::max(1.0, nice_step(xmax - xmin, 8)) : nice_step(xmax - xmin, 8);
    for (double x = std::ceil(xmin / step) * step; x <= xmax + step * 1e-9; x += step) xticks.push_back(x);
  }
  for (double x : xticks)
    out += "<line x1=\"" + f1(px(x)) + "\" x2=\"" + f1(px(x)) + "\" y1=\"" + f1(kTop) + "\" y2=\"" +
           f1(kTop + kPlotH) + "\" class=\"grid\"/><text x=\"" + f1(px(x)) + "\" y=\"" + f1(kTop + kPlotH + 16) +
           "\" text-anchor=\"middle\" class=\"tick\">" + html_escape(tick_label(x, c.x_format)) + "</text>";
  out += "<text x=\"" + f1(kLeft + kPlotW / 2) + "\" y=\"" + f1(kH - 10) + "\" text-anchor=\"middle\" class=\"axis\">" +
         html_escape(c.x_label) + "</text><text transform=\"translate(16 " + f1(kTop + kPlotH / 2) +
         ") rotate(-90)\" text-anchor=\"middle\" class=\"axis\">" +
         html_escape(c.y_label + (log_y ? ", log scale" : "")) + "</text>";

  double ly = kTop + 6;
  auto legend = [&](const std::string& colour, bool dashed, const std::string& label) {
    out += "<line x1=\"" + f1(kLeft + kPlotW + 12) + "\" x2=\"" + f1(kLeft + kPlotW + 32) + "\" y1=\"" + f1(ly) +
           "\" y2=\"" + f1(ly) + "\" stroke=\"" + colour + "\" stroke-width=\"2\"" +
           (dashed ? " stroke-dasharray=\"5 3\"" : "") + "/><text x=\"" + f1(kLeft + kPlotW + 36) + "\" y=\"" +
           f1(ly + 4) + "\" class=\"legend\">" + html_escape(short_text(label, 24)) + "</text>";
    ly += 16;
  };
  for (const auto& l : c.ceilings) {
    out += "<line x1=\"" + f1(kLeft) + "\" x2=\"" + f1(kLeft + kPlotW) + "\" y1=\"" + f1(py(l.y)) + "\" y2=\"" +
           f1(py(l.y)) + "\" stroke=\"" + kCeilingColour + "\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>";
    legend(kCeilingColour, true, l.label);
  }
  for (size_t i = 0; i < c.series.size(); ++i) {
    const auto& s = c.series[i];
    const std::string colour = s.dashed ? kCeilingColour : kPalette[i % std::size(kPalette)];
    if (!s.band.empty() && s.band.size() == s.points.size()) {
      std::string pts;
      for (size_t k = 0; k < s.points.size(); ++k) pts += f1(px(s.points[k].first)) + "," + f1(py(s.band[k].second)) + " ";
      for (size_t k = s.points.size(); k-- > 0;) pts += f1(px(s.points[k].first)) + "," + f1(py(s.band[k].first)) + " ";
      out += "<polygon points=\"" + pts + "\" fill=\"" + colour + "\" fill-opacity=\"0.18\" stroke=\"none\"/>";
    }
    std::string pts;
    for (const auto& [x, y] : s.points)
      if (!c.log2_x || x > 0) pts += f1(px(x)) + "," + f1(py(y)) + " ";
    out += "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"2\"" +
           (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>";
    if (!s.dashed && s.points.size() <= 64)
      for (const auto& [x, y] : s.points)
        if (!c.log2_x || x > 0)
          out += "<circle cx=\"" + f1(px(x)) + "\" cy=\"" + f1(py(y)) + "\" r=\"2.5\" fill=\"" + colour + "\"/>";
    legend(colour, s.dashed, s.label);
  }
  return out + "</svg>";
}

std::string svg_heatmap(const Heatmap& h) {
  const size_t n = h.labels.size();
  const double cell = std::clamp(560.0 / static_cast<double>(std::max<size_t>(n, 1)), 4.0, 48.0);
  const double left = 120, top = 120;
  const double w = left + cell * static_cast<double>(n) + 20, hh = top + cell * static_cast<double>(n) + 44;
  std::string out = svg_open(std::max({w, 440.0, title_width(h.title)}), hh + 8, h.title);
  const bool text = cell >= 34;
  const bool labels = cell >= 10;
  for (size_t i = 0; i < n; ++i) {
    const double x = left + cell * static_cast<double>(i), y = top + cell * static_cast<double>(i);
    if (labels) {
      out += "<text x=\"" + f1(left - 6) + "\" y=\"" + f1(y + cell / 2 + 4) + "\" text-anchor=\"end\" class=\"tick\">" +
             html_escape(short_text(h.labels[i], 16)) + "</text>";
      out += "<text transform=\"translate(" + f1(x + cell / 2 + 4) + " " + f1(top - 6) +
             ") rotate(-60)\" class=\"tick\">" + html_escape(short_text(h.labels[i], 16)) + "</text>";
    }
    for (size_t j = 0; j < n; ++j) {
      const auto& v = h.values[i][j];
      const auto& fr = h.fraction[i][j];
      const std::string fill =
          fr ? "hsl(" + f1(120 * std::clamp((*fr - 0.5) / 0.5, 0.0, 1.0)) + ",70%,45%)"
             : std::string(i == j ? "#ddd" : "#f3f3f3");
      const double cx = left + cell * static_cast<double>(j);
      out += "<rect x=\"" + f1(cx) + "\" y=\"" + f1(y) + "\" width=\"" + f1(cell - 1) + "\" height=\"" +
             f1(cell - 1) + "\" fill=\"" + fill + "\"><title>" +
             html_escape(h.labels[i] + " -> " + h.labels[j] + (v ? ": " + format_fixed(*v, 3) + " " + h.unit : "")) +
             "</title></rect>";
      if (text && v)
        out += "<text x=\"" + f1(cx + cell / 2) + "\" y=\"" + f1(y + cell / 2 + 4) +
               "\" text-anchor=\"middle\" class=\"cell\">" + html_escape(format_fixed(*v, cell >= 44 ? 3 : 2)) +
               "</text>";
    }
  }
  out += "<text x=\"10\" y=\"" + f1(hh - 12) + "\" class=\"axis\">" +
         html_escape(h.row_label + " (rows) -> " + h.col_label + " (columns), " + h.unit +
                     "; colour: share of the ceiling,") +
         "</text><text x=\"10\" y=\"" + f1(hh) + "\" class=\"axis\">" +
         html_escape("red at 50% or less, green at 100%") +
         "</text>";
  return out + "</svg>";
}

std::string svg_category_matrix(const CategoryMatrix& m) {
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
  const double w = left + cell * static_cast<double>(n) + 20, h = top + cell * static_cast<double>(n) + 20;
  std::string out = svg_open(std::max({w, 300.0, title_width(m.title)}), h, m.title);
  for (size_t i = 0; i < n; ++i) {
    const double y = top + cell * static_cast<double>(i);
    out += "<text x=\"" + f1(left - 6) + "\" y=\"" + f1(y + cell / 2 + 4) + "\" text-anchor=\"end\" class=\"tick\">" +
           html_escape(short_text(m.labels[i], 14)) + "</text>";
    out += "<text transform=\"translate(" + f1(left + cell * static_cast<double>(i) + cell / 2 + 4) + " " +
           f1(top - 6) + ") rotate(-60)\" class=\"tick\">" + html_escape(short_text(m.labels[i], 14)) + "</text>";
    for (size_t j = 0; j < n; ++j) {
      const double x = left + cell * static_cast<double>(j);
      out += "<rect x=\"" + f1(x) + "\" y=\"" + f1(y) + "\" width=\"" + f1(cell - 1) + "\" height=\"" + f1(cell - 1) +
             "\" fill=\"" + colour(m.cells[i][j]) + "\"/>";
      if (cell >= 26)
        out += "<text x=\"" + f1(x + cell / 2) + "\" y=\"" + f1(y + cell / 2 + 4) +
               "\" text-anchor=\"middle\" class=\"cell\">" + html_escape(short_text(m.cells[i][j], 5)) + "</text>";
    }
  }
  return out + "</svg>";
}

}  // namespace gpunet::report
