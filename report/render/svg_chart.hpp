// Inline SVG charts for the HTML report: line charts (log2 or linear x; the y axis turns logarithmic
// when the figures span more than a factor 20) with ceiling lines and a legend under the plot that
// wraps instead of cutting; the pair heatmap, whose cells carry their pair, value and verdict as
// attributes (class "pair good" / "pair bad" / "pair failed", data-src, data-dst, data-value,
// data-unit, data-efficiency, data-vs-reference); small per-flow timelines with dips shaded (data-src,
// data-dst, data-test, data-intervals, data-dips); and the
// categorical topology matrix. Pure functions returning one <svg> element; all text escaped.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpunet::report {

enum class AxisFormat { bytes, number, seconds };

struct ChartSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;  // (x, y), ascending x
  bool dashed = false;                            // ceilings that vary along x
  // Optional band (min, max) per point, drawn behind the line.
  std::vector<std::pair<double, double>> band;
};

struct ChartLine {  // a horizontal ceiling line
  std::string label;
  double y = 0;
};

struct LineChart {
  std::string title;
  std::string x_label, y_label;
  bool log2_x = false;
  bool integer_x = false;  // ticks on whole numbers (node counts)
  AxisFormat x_format = AxisFormat::number;
  std::vector<ChartSeries> series;
  std::vector<ChartLine> ceilings;
};
std::string svg_line_chart(const LineChart& c);

// One cell of the pair heatmap: the flow from the row's host to the column's.
struct HeatmapCell {
  bool measured = false;             // a flow of this pair is in the report
  std::optional<double> value;       // its figure; nullopt when the flow did not pass
  std::optional<double> efficiency;  // against the ceiling of its own path
  double vs_reference = 0;           // value / the heatmap's reference: the colour
  bool good = false;                 // vs_reference >= the threshold, not blamed, not above its ceiling
  std::string note;                  // why a flow did not pass
  bool blamed = false;               // "What is wrong" names this direction slow: coloured as failing
  bool above_ceiling = false;        // efficiency above kOverCeiling: a ceiling to explain, never green
};

struct Heatmap {
  std::string title;
  std::string row_label, col_label;  // "from", "to"
  std::vector<std::string> labels;   // rows and columns
  std::vector<std::vector<HeatmapCell>> cells;  // [row][column]
  std::string unit;
  double reference = 0;  // what one pair should deliver, in `unit`
  double threshold = 0.8;  // a cell at or above threshold x reference is good
  std::vector<std::string> legend;  // what the colours are measured against, in sentences
};
std::string svg_heatmap(const Heatmap& h);
// The fill of a cell: green from the threshold up, orange to red below it (red at 50 % or less); a
// blamed cell orange to red whatever its rate, a cell above its own ceiling purple.
std::string heat_colour(const HeatmapCell& c, double threshold, bool diagonal);

// The rate of one flow per interval, as a small panel among many.
struct TimelinePanel {
  std::string title;            // "a -> b"
  std::string src, dst, test;   // for the data-src, data-dst and data-test attributes
  std::vector<double> rates;    // per interval, in `unit`
  double interval_s = 0;        // 0: not known (x counts intervals)
  std::optional<double> ceiling;
  std::optional<double> dip_below;  // an interval below this is a dip, shaded
  std::string unit;
  double y_max = 0;  // the top of the y axis, shared by the panels of a group (0: this panel's own)
};
std::string svg_timeline_panel(const TimelinePanel& p);
size_t dip_intervals(const TimelinePanel& p);  // intervals below dip_below

struct CategoryMatrix {
  std::string title;
  std::vector<std::string> labels;
  std::vector<std::vector<std::string>> cells;
};
// Cells coloured by nvidia-smi topo class: X, NV#, PIX, PXB, PHB, NODE, SYS.
std::string svg_category_matrix(const CategoryMatrix& m);

}  // namespace gpunet::report
