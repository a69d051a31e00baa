#include "bench/engines/scaling_run.hpp"

#include <algorithm>
#include <cstdio>

#include "bench/core/measure/measurement.hpp"
#include "bench/core/sizes.hpp"

namespace gpunet::bench {

namespace {

using gpunet::json;

// A point counts as a drop below this fraction of the best multi-node busbw before it.
constexpr double kKeepFraction = 0.8;

std::string fmt_GBps(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GB/s", v);
  return buf;
}

json node_hosts(const MpiContext& mpi, const std::vector<int>& nodes) {
  json out = json::array();
  for (int n : nodes) {
    const auto ranks = ranks_of_nodes(mpi.node_of_rank, {n});
    out.push_back(ranks.empty() ? "?" : mpi.hosts[static_cast<size_t>(ranks.front())]);
  }
  return out;
}

double measure_group(const SuiteContext& ctx, const std::string& suite, const std::string& memory, int64_t bytes,
                     const ScalingGroup& g, const ScalingMeasure& measure) {
  const bool mine = std::find(g.nodes.begin(), g.nodes.end(), ctx.mpi.node_index) != g.nodes.end();
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(ctx.mpi.world, mine ? 0 : MPI_UNDEFINED, ctx.mpi.rank, &comm);
  auto rec = ctx.record(suite, "allreduce");
  rec.variant = std::string(g.probe ? "scaling probe " : "scaling ") + std::to_string(g.nodes.size()) + " node(s)";
  rec.bytes = bytes;
  rec.ranks = static_cast<int>(ranks_of_nodes(ctx.mpi.node_of_rank, g.nodes).size());
  rec.extra["nodes"] = g.nodes.size();
  rec.extra["scaling"] = {{"hosts", node_hosts(ctx.mpi, g.nodes)}, {"added", node_hosts(ctx.mpi, g.added)}, {"probe", g.probe}};
  double busbw = measure(comm, g, rec);
  if (rec.status != report::Status::skipped)
    rec.figure = report::collective_figure(suite, memory, rec,
                                           report::group_subject("scaling", "", static_cast<int>(g.nodes.size())),
                                           measure::batch_means_us(rec));
  if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  MPI_Bcast(&busbw, 1, MPI_DOUBLE, 0, ctx.mpi.world);
  if (ctx.mpi.is_root()) ctx.emit(rec);
  return busbw;
}

json point_json(const MpiContext& mpi, const ScalingGroup& g, double busbw) {
  return {{"nodes", g.nodes.size()}, {"hosts", node_hosts(mpi, g.nodes)}, {"busbw_GBps", busbw}};
}

}  // namespace

void idle_step(const SuiteContext& ctx, const std::string& step) { Step guard(ctx.control, step); }

std::string describe_node(const MpiContext& mpi, int node) {
  return node_hosts(mpi, {node})[0].get<std::string>() + " (node " + std::to_string(node) + ")";
}

void run_scaling(const SuiteContext& ctx, const std::string& suite, const std::string& memory, int64_t bytes,
                 const ScalingMeasure& measure) {
  const auto groups = scaling_groups(ctx.mpi.num_nodes);
  std::vector<int> nodes;
  std::vector<double> busbw;
  json points = json::array();
  for (const auto& g : groups) {
    nodes.push_back(static_cast<int>(g.nodes.size()));
    busbw.push_back(measure_group(ctx, suite, memory, bytes, g, measure));
    points.push_back(point_json(ctx.mpi, g, busbw.back()));
  }

  auto summary = ctx.record(suite, "scaling");
  summary.variant = "allreduce " + format_size(bytes);
  summary.bytes = bytes;
  json s = {{"points", points}, {"keep_fraction", kKeepFraction}};
  std::string sentence;
  if (const auto peak = scaling_peak(nodes, busbw)) {
    s["peak"] = point_json(ctx.mpi, groups[*peak], busbw[*peak]);
    sentence = "busbw peaks at " + fmt_GBps(busbw[*peak]) + " with " + std::to_string(nodes[*peak]) + " nodes";
  } else {
    sentence = "one node only: nothing to scale";
  }

  if (const auto drop = find_scaling_drop(nodes, busbw, kKeepFraction)) {
    const ScalingGroup& best = groups[drop->best_before];
    const ScalingGroup& after = groups[drop->after];
    json d = {{"from_nodes", nodes[drop->best_before]}, {"to_nodes", nodes[drop->after]},
              {"busbw_before_GBps", busbw[drop->best_before]}, {"busbw_after_GBps", busbw[drop->after]},
              {"ratio", drop->ratio}, {"added", node_hosts(ctx.mpi, nodes_added(best, after))}};
    std::string msg = suite + " scaling: busbw falls from " + fmt_GBps(busbw[drop->best_before]) + " at " +
                      std::to_string(nodes[drop->best_before]) + " nodes to " + fmt_GBps(busbw[drop->after]) + " at " +
                      std::to_string(nodes[drop->after]) + " nodes";
    std::optional<int> culprit;
    const auto probes = probe_groups(best, after);
    if (probes.empty()) {
      const auto added = nodes_added(best, after);
      if (added.size() == 1) culprit = added.front();
    } else {
      std::vector<double> probe_bw;
      json tried = json::array();
      for (const auto& p : probes) {
        probe_bw.push_back(measure_group(ctx, suite, memory, bytes, p, measure));
        tried.push_back(point_json(ctx.mpi, p, probe_bw.back()));
      }
      d["probes"] = tried;
      if (const auto c = culprit_probe(probe_bw, busbw[drop->best_before], kKeepFraction)) culprit = probes[*c].added.front();
    }
    if (culprit) {
      d["culprit_node"] = *culprit;
      d["culprit_host"] = node_hosts(ctx.mpi, {*culprit})[0];
      msg += "; the node that makes it drop is " + describe_node(ctx.mpi, *culprit);
    } else {
      msg += "; no single added node explains it (the drop comes with the group's size)";
    }
    s["drop"] = d;
    sentence += "; " + msg.substr(msg.find(": ") + 2);
    json subjects = culprit ? node_hosts(ctx.mpi, {*culprit}) : node_hosts(ctx.mpi, nodes_added(best, after));
    summary.extra["findings"] =
        json::array({{{"severity", "warning"}, {"kind", "scaling_drop"}, {"message", msg}, {"subjects", subjects}, {"suite", suite}}});
  }
  s["summary"] = sentence;
  summary.extra["scaling"] = s;
  summary.extra["nodes"] = ctx.mpi.num_nodes;
  if (ctx.mpi.is_root()) ctx.emit(summary);
}

}  // namespace gpunet::bench
