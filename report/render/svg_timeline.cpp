// One flow's rate per interval as a small panel (declared in svg_chart.hpp): the rate line, the
// flow's ceiling dashed, the intervals below the dip threshold shaded, and a caption with the median,
// the minimum and the number of dip intervals.
#include <algorithm>
#include <cmath>

#include "report/text/escape.hpp"
#include "report/model/stats.hpp"
#include "report/render/svg_chart.hpp"
#include "report/render/svg_common.hpp"

namespace gpunet::report {

namespace {

constexpr double kPanelW = 272, kPanelPlotH = 72, kPanelLeft = 46, kPanelRight = 12;
constexpr double kPanelPlotW = kPanelW - kPanelLeft - kPanelRight;

}  // namespace

size_t dip_intervals(const TimelinePanel& p) {
  if (!p.dip_below) return 0;
  return static_cast<size_t>(std::count_if(p.rates.begin(), p.rates.end(), [&](double r) { return r < *p.dip_below; }));
}

std::string svg_timeline_panel(const TimelinePanel& p) {
  using svg::num;
  const size_t n = p.rates.size();
  const auto title = svg::wrap_words(p.title, static_cast<size_t>((kPanelW - 16) / 8));
  const double top = 16 + 17 * static_cast<double>(title.size());
  const double bottom = top + kPanelPlotH;
  std::string caption = "no intervals";
  if (n > 0) {
    const double lowest = *std::min_element(p.rates.begin(), p.rates.end());
    const size_t dips = dip_intervals(p);
    caption = "median " + svg::value_text(percentile(p.rates, 0.5)) + ", min " + svg::value_text(lowest) + " " +
              p.unit + "; " + std::to_string(dips) + " dip interval" + (dips == 1 ? "" : "s");
  }
  const auto caption_lines = svg::wrap_words(caption, svg::chars_in(kPanelW - 16));
  const double height = bottom + 24 + 14 * static_cast<double>(caption_lines.size());
  double ymax = std::max(p.y_max, p.ceiling.value_or(0));
  for (double r : p.rates) ymax = std::max(ymax, r);
  if (!(ymax > 0) || !std::isfinite(ymax)) ymax = 1;
  const double ystep = svg::nice_step(ymax * 1.05, 3);
  const double ytop = std::ceil(ymax * 1.05 / ystep) * ystep;
  const double dt = p.interval_s > 0 ? p.interval_s : 1;
  const double span = std::max(1.0, static_cast<double>(n)) * dt;
  auto px = [&](double t) { return kPanelLeft + t / span * kPanelPlotW; };
  auto py = [&](double y) { return bottom - std::clamp(y / ytop, 0.0, 1.0) * kPanelPlotH; };

  std::string out = svg::open(kPanelW, height, title, "chart timeline");
  out.insert(out.find(" role=\"img\""), " data-src=\"" + html_escape(p.src) + "\" data-dst=\"" + html_escape(p.dst) +
                                            "\" data-test=\"" + html_escape(p.test) +
                                            "\" data-intervals=\"" + std::to_string(n) + "\" data-dips=\"" +
                                            std::to_string(dip_intervals(p)) + "\"");
  out += "<rect x=\"" + num(kPanelLeft) + "\" y=\"" + num(top) + "\" width=\"" + num(kPanelPlotW) + "\" height=\"" +
         num(kPanelPlotH) + "\" class=\"plot\"/>";
  for (double y = 0; y <= ytop * 1.0001; y += ystep)
    out += "<line x1=\"" + num(kPanelLeft) + "\" x2=\"" + num(kPanelLeft + kPanelPlotW) + "\" y1=\"" + num(py(y)) +
           "\" y2=\"" + num(py(y)) + "\" class=\"grid\"/><text x=\"" + num(kPanelLeft - 4) + "\" y=\"" + num(py(y) + 4) +
           "\" text-anchor=\"end\" class=\"tick\">" + html_escape(svg::tick_number(y)) + "</text>";
  const double xstep = svg::nice_step(span, 4);
  for (double t = 0; t <= span * 1.0001; t += xstep)
    out += "<text x=\"" + num(px(t)) + "\" y=\"" + num(bottom + 13) + "\" text-anchor=\"middle\" class=\"tick\">" +
           html_escape(p.interval_s > 0 ? svg::tick_seconds(t) : svg::tick_number(t)) + "</text>";
  // Dips first, so that the line stays on top.
  for (size_t i = 0; i < n; ++i)
    if (p.dip_below && p.rates[i] < *p.dip_below)
      out += "<rect class=\"dip\" x=\"" + num(px(static_cast<double>(i) * dt)) + "\" y=\"" + num(top) + "\" width=\"" +
             num(std::max(1.0, px(dt) - px(0))) + "\" height=\"" + num(kPanelPlotH) + "\"/>";
  if (p.ceiling)
    out += "<line x1=\"" + num(kPanelLeft) + "\" x2=\"" + num(kPanelLeft + kPanelPlotW) + "\" y1=\"" + num(py(*p.ceiling)) +
           "\" y2=\"" + num(py(*p.ceiling)) + "\" class=\"ceiling\"/>";
  std::string pts;
  for (size_t i = 0; i < n; ++i) pts += num(px((static_cast<double>(i) + 0.5) * dt)) + "," + num(py(p.rates[i])) + " ";
  out += "<polyline points=\"" + pts + "\" class=\"rate\"/>";
  out += svg::text_lines(8, bottom + 30, 14, caption_lines, "legend");
  return out + "</svg>";
}

}  // namespace gpunet::report
