// Which charts a report has, chosen from its analysed figures by metric, subject and parameters
// (never by a suite's name, a record's byte count or extra keys): rate figures vs message size (the
// `bytes` parameter) with ceiling lines, collective busbw vs node count for the scaling sweep, the pair
// heatmap of matrix flows (chart_pairs.hpp), the flow timelines (chart_timeline.hpp) and the topology
// matrices. A chart that would have nothing to show is left out, with one line saying why. Pure; the
// SVG is drawn by svg_chart.
#pragma once

#include <string>
#include <vector>

#include "report/model/record.hpp"
#include "report/render/svg_chart.hpp"

namespace gpunet::report {

inline constexpr size_t kMaxSeriesPerChart = 8;  // beyond this, sweeps are drawn as median and min-max band

// Charts of one kind, and one line for each chart left out: "mpi.allreduce.busbw: one message size
// only (1 MiB), nothing to draw against size".
template <class Chart>
struct Drawn {
  std::vector<Chart> charts;
  std::vector<std::string> omitted;
};

Drawn<LineChart> size_charts(const Report& rep);
Drawn<LineChart> scaling_charts(const Report& rep);
std::vector<CategoryMatrix> topology_charts(const Report& rep);  // identical nodes drawn once

}  // namespace gpunet::report
