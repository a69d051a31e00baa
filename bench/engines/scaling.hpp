// The scaling sweep: the same all_reduce on sub-communicators of whole nodes, 1, 2, 4, ... nodes,
// to show where busbw stops growing and which node, once added, makes it drop. Pure planning and
// analysis here; scaling_run.cpp drives the measurement for the mpi and nccl suites.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpunet::bench {

// One sub-communicator of whole nodes.
struct ScalingGroup {
  std::vector<int> nodes;  // node indexes, ascending
  std::vector<int> added;  // nodes not in the previous sweep point (probes: the one node tried)
  bool probe = false;      // a probe: the last good point plus one of the nodes added after it
};

// Node counts of the sweep: 1, 2, 4, ... and num_nodes itself when it is not a power of two.
std::vector<int> scaling_node_counts(int num_nodes);

// The sweep points: the first k nodes (in node-index order) for each k of scaling_node_counts().
std::vector<ScalingGroup> scaling_groups(int num_nodes);

// World ranks on the given nodes, ascending.
std::vector<int> ranks_of_nodes(const std::vector<int>& node_of_rank, const std::vector<int>& nodes);

// A drop: busbw at sweep point `after` is below keep_fraction of the best multi-node point before it.
// Single-node points are not compared (their traffic stays inside the node).
struct ScalingDrop {
  size_t best_before = 0;  // index of the best multi-node point before the drop
  size_t after = 0;        // index of the first point that dropped
  double ratio = 0;        // busbw[after] / busbw[best_before]
};
std::optional<ScalingDrop> find_scaling_drop(const std::vector<int>& nodes_per_point, const std::vector<double>& busbw,
                                             double keep_fraction);

// Nodes of `later` that are not in `best`, ascending.
std::vector<int> nodes_added(const ScalingGroup& best, const ScalingGroup& later);

// Probes that name the culprit of a drop: the best point's nodes plus one node added at the drop
// point, for each added node. Empty when only one node was added (it is the culprit).
std::vector<ScalingGroup> probe_groups(const ScalingGroup& best, const ScalingGroup& dropped);

// Index of the probe that dropped the most, if any probe fell below keep_fraction * baseline.
std::optional<size_t> culprit_probe(const std::vector<double>& probe_busbw, double baseline, double keep_fraction);

// The index (into points) of the highest busbw among multi-node points; nullopt with none.
std::optional<size_t> scaling_peak(const std::vector<int>& nodes_per_point, const std::vector<double>& busbw);

}  // namespace gpunet::bench
