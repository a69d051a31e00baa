// Inline SVG charts for the HTML report: line charts (log2 or linear x; the y axis turns logarithmic
// when the figures span more than a factor 20) with ceiling lines, a value
// heatmap and a categorical matrix. Pure functions returning one <svg> element; all text escaped.
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

struct Heatmap {
  std::string title;
  std::string row_label, col_label;  // "from", "to"
  std::vector<std::string> labels;   // rows and columns
  std::vector<std::vector<std::optional<double>>> values;
  std::vector<std::vector<std::optional<double>>> fraction;  // colour: value / reference, 0..1
  std::string unit;
};
std::string svg_heatmap(const Heatmap& h);

struct CategoryMatrix {
  std::string title;
  std::vector<std::string> labels;
  std::vector<std::vector<std::string>> cells;
};
// Cells coloured by nvidia-smi topo class: X, NV#, PIX, PXB, PHB, NODE, SYS.
std::string svg_category_matrix(const CategoryMatrix& m);

}  // namespace gpunet::report
