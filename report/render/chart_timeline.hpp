// Stability timelines: each TCP flow's goodput per interval (Figure::samples), as small multiples,
// one group per test (matrix flows first, then neighbours, the --duration default, then the rest;
// the re-tests of suspects repeat matrix cells and are left out). The interval length is the flow
// record's extra.interval_s and the dip threshold its extra.stability.threshold_Gbps, as the tcp suite
// wrote them. A group of more than kTimelinePanels flows shows the ones with the deepest dips (lowest
// minimum / median) and says how many it left out. The panels of a group share one y scale, so that
// a slow flow looks slow beside the others. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/render/html_charts.hpp"

namespace gpunet::report {

inline constexpr size_t kTimelinePanels = 12;

struct TimelineGroup {
  std::string test;                   // the flows' test parameter: matrix, neighbours, ...
  std::string title;                  // "matrix flows: goodput per 0.1 s interval"
  std::vector<TimelinePanel> panels;  // by pair, or worst first when some were left out
  std::string note;                   // what was left out, or ""
};

struct Timelines {
  std::vector<TimelineGroup> groups;
  std::string legend;                 // what a panel shows, in one sentence
  std::vector<std::string> omitted;
};
Timelines timeline_charts(const Report& rep);

}  // namespace gpunet::report
