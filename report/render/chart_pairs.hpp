// The N x N pair heatmap: rows send, columns receive, one cell per directed pair, from the flows that
// had the pair to themselves and nothing else. Selected by figure, never by extra keys:
//   tcp   metric tcp.goodput, a pair subject, parameter test=matrix (not one-to-many, many-to-one or the
//         re-tests of suspects, whose rates share a link or repeat a cell)
//   rdma  metric rdma.write.bw, a pair subject, host memory, one direction, at the largest size measured
// Each cell is coloured against what one pair of this cluster should deliver (the reference): the
// promised link rate when the acceptance spec states one (report.extra.spec.link_rate_Gbps), else the
// typical pair (typical_pair below), so that one slow node's row and column stand out. A cell at or
// above the analysis threshold (report.extra.analysis.threshold, default 0.8) x the reference is good,
// below it bad. Each cell also carries its efficiency against its own path's ceiling. Above kMaxDrawnSide
// hosts the drawing shows blocks of pairs (svg_heatmap_blocks.hpp); above kMaxHeatmapHosts (n x n cells
// held in memory) there is no heatmap, and the pairs stay in report.json and tcp_matrix.csv. Pure.
#pragma once

#include <optional>
#include <vector>

#include "report/render/html_charts.hpp"
#include "report/judge/culprits.hpp"

namespace gpunet::report {

inline constexpr size_t kMaxHeatmapHosts = 2048;

// Pairs that `blamed` names are drawn failing whatever their efficiency.
Drawn<Heatmap> pair_heatmaps(const Report& rep, const BlamedPairs& blamed);

// What one pair should deliver when no promise says: per host, the median of the cells of its row
// and column; then the median of those over the hosts. One slow node lowers only its own median, so
// the reference stays at the healthy pairs' rate until half the nodes are slow (the plain median of
// cells would not: with 4 nodes, half of all pairs involve any one node). nullopt without a value.
std::optional<double> typical_pair(const std::vector<std::vector<std::optional<double>>>& values);

}  // namespace gpunet::report
