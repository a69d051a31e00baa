#include "bench/engines/scaling.hpp"

#include <algorithm>

namespace gpunet::bench {

std::vector<int> scaling_node_counts(int num_nodes) {
  std::vector<int> out;
  for (int k = 1; k < num_nodes; k *= 2) out.push_back(k);
  if (num_nodes >= 1) out.push_back(num_nodes);
  return out;
}

std::vector<ScalingGroup> scaling_groups(int num_nodes) {
  std::vector<ScalingGroup> out;
  int prev = 0;
  for (int k : scaling_node_counts(num_nodes)) {
    ScalingGroup g;
    for (int n = 0; n < k; ++n) {
      g.nodes.push_back(n);
      if (n >= prev) g.added.push_back(n);
    }
    out.push_back(g);
    prev = k;
  }
  return out;
}

std::vector<int> ranks_of_nodes(const std::vector<int>& node_of_rank, const std::vector<int>& nodes) {
  std::vector<int> out;
  for (size_t r = 0; r < node_of_rank.size(); ++r)
    if (std::find(nodes.begin(), nodes.end(), node_of_rank[r]) != nodes.end()) out.push_back(static_cast<int>(r));
  return out;
}

std::optional<ScalingDrop> find_scaling_drop(const std::vector<int>& nodes_per_point, const std::vector<double>& busbw,
                                             double keep_fraction) {
  std::optional<size_t> best;
  for (size_t i = 0; i < nodes_per_point.size() && i < busbw.size(); ++i) {
    if (nodes_per_point[i] < 2) continue;
    if (best && busbw[i] < keep_fraction * busbw[*best])
      return ScalingDrop{*best, i, busbw[*best] > 0 ? busbw[i] / busbw[*best] : 0.0};
    if (!best || busbw[i] > busbw[*best]) best = i;
  }
  return std::nullopt;
}

std::vector<int> nodes_added(const ScalingGroup& best, const ScalingGroup& later) {
  std::vector<int> added;
  for (int n : later.nodes)
    if (std::find(best.nodes.begin(), best.nodes.end(), n) == best.nodes.end()) added.push_back(n);
  return added;
}

std::vector<ScalingGroup> probe_groups(const ScalingGroup& best, const ScalingGroup& dropped) {
  const std::vector<int> added = nodes_added(best, dropped);
  std::vector<ScalingGroup> out;
  if (added.size() < 2) return out;
  for (int n : added) {
    ScalingGroup g;
    g.nodes = best.nodes;
    g.nodes.push_back(n);
    std::sort(g.nodes.begin(), g.nodes.end());
    g.added = {n};
    g.probe = true;
    out.push_back(g);
  }
  return out;
}

std::optional<size_t> culprit_probe(const std::vector<double>& probe_busbw, double baseline, double keep_fraction) {
  if (probe_busbw.empty()) return std::nullopt;
  const auto lowest = static_cast<size_t>(std::min_element(probe_busbw.begin(), probe_busbw.end()) - probe_busbw.begin());
  if (probe_busbw[lowest] >= keep_fraction * baseline) return std::nullopt;
  return lowest;
}

std::optional<size_t> scaling_peak(const std::vector<int>& nodes_per_point, const std::vector<double>& busbw) {
  std::optional<size_t> best;
  for (size_t i = 0; i < nodes_per_point.size() && i < busbw.size(); ++i)
    if (nodes_per_point[i] >= 2 && (!best || busbw[i] > busbw[*best])) best = i;
  return best;
}

}  // namespace gpunet::bench
