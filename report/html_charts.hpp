// Which charts a report has, built from its records: figure vs message size per collective with
// ceiling lines, figure vs node count, the N x N pair heatmap, stability timelines and the topology
// matrices. Pure; the SVG is drawn by svg_chart.
#pragma once

#include <vector>

#include "report/record.hpp"
#include "report/svg_chart.hpp"

namespace gpunet::report {

inline constexpr size_t kMaxSeriesPerChart = 8;  // beyond this, sweeps are drawn as median and min-max band
inline constexpr size_t kMaxHeatmapHosts = 256;

std::vector<LineChart> size_charts(const Report& rep);
std::vector<LineChart> scaling_charts(const Report& rep);
std::vector<Heatmap> pair_heatmaps(const Report& rep);
std::vector<LineChart> timeline_charts(const Report& rep);
std::vector<CategoryMatrix> topology_charts(const Report& rep);  // identical nodes drawn once

}  // namespace gpunet::report
