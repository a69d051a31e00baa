#include "report/training/training_inputs.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "report/analysis/analysis.hpp"
#include "report/model/json_access.hpp"
#include "report/analysis/sections.hpp"
#include "report/model/stats.hpp"

namespace gpunet::report::training {

namespace {

bool is_sweep(const Record& r) { return r.variant == "out-of-place" || r.variant == "in-place"; }
bool is_scaling(const Record& r) { return r.variant.rfind("scaling ", 0) == 0; }

bool usable_allreduce(const Record& r) {
  return record_kind(r) == RecordKind::collective_point && r.name == "allreduce" && r.status == Status::passed &&
         r.bytes > 0 && r.ranks >= 2 && r.time_us.mean > 0 && (is_sweep(r) || is_scaling(r));
}

// NCCL's sweeps (device memory) come before MPI's (host memory): the figure's memory parameter.
bool on_device_memory(const Record& r) {
  if (!r.figure) return false;
  const auto it = r.figure->parameters.find("memory");
  return it != r.figure->parameters.end() && it->second == "device";
}

std::string pair_label(const Record& r) {
  return extra_string(r, "src_host").value_or("?") + " -> " + extra_string(r, "dst_host").value_or("?");
}

void add_point(Curve& c, const Record& r, int nodes) {
  const bool larger = c.points.empty() || static_cast<double>(r.bytes) >= c.points.back().bytes;
  c.points.push_back({r.ranks, static_cast<double>(r.bytes), r.time_us.mean * 1e-6});
  if (larger) {
    c.ranks = r.ranks;
    c.efficiency = ceiling_view(r).efficiency;
  }
  c.nodes = std::max(c.nodes, nodes);
}

double median(std::vector<double> v) { return percentile(std::move(v), 0.5); }

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

std::optional<PairFigures> pair_figures(const Report& rep) {
  std::vector<double> goodput, half, eff;
  std::string first;
  std::vector<std::string> interfaces;
  for (const auto& r : rep.results) {
    const RecordKind kind = record_kind(r);
    if (r.status != Status::passed) continue;
    if (const double Gbps = kind == RecordKind::tcp_flow ? extra_number(r, "goodput_Gbps").value_or(0.0) : 0; Gbps > 0) {
      if (const auto* link = link_facts_at(r, LinkEnd::own)) add_unique(interfaces, jsonx::string(*link, "iface").value_or(""));
      goodput.push_back(Gbps * 1e9 / 8);
      if (const auto e = ceiling_view(r).efficiency) eff.push_back(*e);
      if (first.empty()) first = pair_label(r);
    }
    if (kind == RecordKind::tcp_latency && r.time_us.p50 > 0) half.push_back(r.time_us.p50 * 1e-6);
  }
  if (goodput.empty() || half.empty()) return std::nullopt;
  PairFigures p;
  p.pairs = goodput.size() == 1 ? first : std::to_string(goodput.size()) + " pairs";
  std::sort(interfaces.begin(), interfaces.end());
  p.interfaces = std::move(interfaces);
  p.goodput_Bps = median(goodput);
  p.half_rtt_s = median(half);
  if (!eff.empty()) p.efficiency = median(eff);
  return p;
}

std::map<std::string, Crossed> crossed(const Report& rep) {
  std::map<std::string, Crossed> out;
  for (const auto& r : rep.results) {
    const auto* traffic = jsonx::object_at(r.extra, "traffic");
    const auto* by = traffic ? jsonx::array_at(*traffic, "carried_by") : nullptr;
    if (!by) continue;
    Crossed& c = out[r.name];
    ++c.hosts;
    for (const auto& i : *by)
      if (i.is_string()) add_unique(c.interfaces, i.get<std::string>());
  }
  for (auto& [suite, c] : out) std::sort(c.interfaces.begin(), c.interfaces.end());
  return out;
}

}  // namespace

TrainingInputs select_training_inputs(const Report& rep) {
  // key: (order, source, nodes, ranks); order puts NCCL before MPI and sweeps before scaling sweeps.
  std::map<std::tuple<int, std::string, int, int>, Curve> curves;
  for (const auto& r : rep.results) {
    if (!usable_allreduce(r)) continue;
    const int nodes = record_nodes(r, rep.provenance);
    const int order = (on_device_memory(r) ? 0 : 2) + (is_scaling(r) ? 1 : 0);
    if (is_scaling(r) && nodes < 2) continue;
    const std::string source = r.suite + " allreduce" + (is_scaling(r) ? " scaling sweep" : "");
    const auto key = std::make_tuple(order, source, is_scaling(r) ? 0 : nodes, is_scaling(r) ? 0 : r.ranks);
    Curve& c = curves[key];
    if (c.source.empty()) c.source = source, c.suite = r.suite;
    const bool seen = std::any_of(c.points.begin(), c.points.end(), [&](const TimedPoint& p) {
      return p.n == r.ranks && p.bytes == static_cast<double>(r.bytes);
    });
    if (!seen) add_point(c, r, nodes);  // one point per size: the first record (rank 0's)
  }
  TrainingInputs in;
  for (auto& [key, c] : curves) {
    c.path = c.nodes >= 2 ? "between nodes" : c.nodes == 1 ? "within a node" : "path unknown (node count not recorded)";
    in.curves.push_back(std::move(c));
  }
  in.pair = pair_figures(rep);
  in.crossed = crossed(rep);
  for (const auto& r : rep.results) {
    if (record_kind(r) != RecordKind::training_step || r.status != Status::passed) continue;
    const auto* pred = jsonx::object_at(r.extra, "predicted");
    const double model = pred ? jsonx::number(*pred, "model_s").value_or(0) : 0;
    if (model <= 0) continue;
    in.steps.push_back({r.variant, static_cast<int>(jsonx::number(r.extra, "nodes").value_or(0)), r.time_us.mean * 1e-6,
                        model, r.extra.value("within_bounds", false)});
  }
  for (const auto& r : rep.results)
    if (record_kind(r) == RecordKind::tcp_latency && r.status == Status::passed && r.time_us.p99 > 0)
      in.latency.push_back({pair_label(r), 2 * r.time_us.p99});
  return in;
}

}  // namespace gpunet::report::training
