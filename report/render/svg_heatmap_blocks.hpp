// The pair heatmap of a large matrix: above kMaxDrawnSide hosts a side, each drawn square is a block
// of host pairs coloured by its worst pair, so one slow host stays a visible line at 1,024 hosts, and
// the hosts with many bad pairs are labelled. Internal to svg_heatmap.cpp. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/render/svg_chart.hpp"

namespace gpunet::report {

inline constexpr size_t kMaxDrawnSide = 128;  // squares a side; more hosts than this are drawn as blocks

// Hosts a block side for n hosts: 1 up to kMaxDrawnSide, then enough that at most kMaxDrawnSide
// blocks make a side. The legend and the drawing both use it.
constexpr size_t hosts_per_block(size_t n) { return n <= kMaxDrawnSide ? 1 : (n + kMaxDrawnSide - 1) / kMaxDrawnSide; }

// Hosts with at least a quarter of their measured pairs (either direction) not good, worst first, at
// most `limit`: the hosts a large heatmap labels.
std::vector<size_t> hosts_to_label(const Heatmap& h, size_t limit);

struct BlockGrid {
  double left = 0, top = 0, grid = 0;  // where the grid is drawn and its side in px
};
// The blocks, their tooltips and the labels of hosts_to_label(), as SVG elements.
std::string svg_heatmap_blocks(const Heatmap& h, const BlockGrid& at);

}  // namespace gpunet::report
