#include "report/training/training_model.hpp"

#include <algorithm>
#include <cmath>

#include "report/analysis/ceilings.hpp"
#include "report/model/stats.hpp"

namespace gpunet::report::training {

double ring_allreduce_s(const AlphaBeta& m, int n, double bytes) {
  if (n < 2) return 0;
  return 2.0 * (n - 1) * m.alpha_s + ring_bytes_per_rank(n, bytes) * m.beta_s_per_byte;
}

double ring_bytes_per_rank(int n, double bytes) { return n < 2 ? 0 : ring_steps(n) * ring_step_bytes(n, bytes); }

int ring_steps(int n) { return n < 2 ? 0 : 2 * (n - 1); }

double ring_step_bytes(int n, double bytes) { return n < 2 ? 0 : bytes / n; }

bool ring_neighbours_coincide(int n) { return n == 2; }

double ring_half_s(const AlphaBeta& m, int n, double bytes) {
  if (n < 2) return 0;
  return (n - 1) * (m.alpha_s + ring_step_bytes(n, bytes) * m.beta_s_per_byte);
}

namespace {

// The two regressors of the ring model for one point: x1 multiplies alpha, x2 multiplies beta.
struct Row {
  double x1, x2, t;
};

std::vector<Row> rows_of(const std::vector<TimedPoint>& points) {
  std::vector<Row> rows;
  for (const auto& p : points)
    if (p.n >= 2 && p.seconds > 0 && std::isfinite(p.seconds) && p.bytes >= 0)
      rows.push_back({2.0 * (p.n - 1), ring_bytes_per_rank(p.n, p.bytes), p.seconds});
  return rows;
}

// Weighted least squares with weights 1/t^2, both parameters non-negative.
std::optional<AlphaBeta> solve(const std::vector<Row>& rows) {
  double s11 = 0, s12 = 0, s22 = 0, b1 = 0, b2 = 0;
  for (const auto& r : rows) {
    const double w = 1.0 / (r.t * r.t);
    s11 += w * r.x1 * r.x1;
    s12 += w * r.x1 * r.x2;
    s22 += w * r.x2 * r.x2;
    b1 += w * r.x1 * r.t;
    b2 += w * r.x2 * r.t;
  }
  const double det = s11 * s22 - s12 * s12;
  if (!(std::abs(det) > 1e-12 * s11 * s22)) return std::nullopt;
  AlphaBeta m{(b1 * s22 - b2 * s12) / det, (b2 * s11 - b1 * s12) / det};
  if (m.alpha_s < 0) m = {0, b2 / s22};
  if (m.beta_s_per_byte < 0) m = {b1 / s11, 0};
  return m;
}

FitQuality quality_of(const std::vector<Residual>& res) {
  FitQuality q;
  double mean = 0;
  for (const auto& r : res) mean += r.measured_s;
  mean /= static_cast<double>(res.size());
  double ss_res = 0, ss_tot = 0;
  std::vector<double> rel;
  for (const auto& r : res) {
    ss_res += (r.measured_s - r.predicted_s) * (r.measured_s - r.predicted_s);
    ss_tot += (r.measured_s - mean) * (r.measured_s - mean);
    rel.push_back(std::abs(r.relative));
  }
  q.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : (ss_res == 0 ? 1 : 0);
  q.max_abs_relative = *std::max_element(rel.begin(), rel.end());
  q.median_abs_relative = percentile(rel, 0.5);
  return q;
}

double squared_relative(const RegimeFit& f) {
  double s = 0;
  for (const auto& r : f.residuals) s += r.relative * r.relative;
  return s;
}

size_t distinct_sizes(const std::vector<TimedPoint>& pts) {
  size_t n = 0;
  for (size_t i = 0; i < pts.size(); ++i) n += i == 0 || pts[i].bytes != pts[i - 1].bytes;
  return n;
}

}  // namespace

std::optional<RegimeFit> fit_ring(const std::vector<TimedPoint>& points, const std::string& regime) {
  const auto rows = rows_of(points);
  if (rows.size() < 2) return std::nullopt;
  const auto model = solve(rows);
  if (!model) return std::nullopt;
  RegimeFit fit;
  fit.regime = regime;
  fit.model = *model;
  bool first = true;
  for (const auto& p : points) {
    if (p.n < 2 || !(p.seconds > 0) || !std::isfinite(p.seconds) || p.bytes < 0) continue;
    const double pred = ring_allreduce_s(*model, p.n, p.bytes);
    fit.residuals.push_back({p.n, p.bytes, p.seconds, pred, (pred - p.seconds) / p.seconds});
    fit.min_bytes = first ? p.bytes : std::min(fit.min_bytes, p.bytes);
    fit.max_bytes = first ? p.bytes : std::max(fit.max_bytes, p.bytes);
    first = false;
  }
  std::stable_sort(fit.residuals.begin(), fit.residuals.end(),
                   [](const Residual& a, const Residual& b) { return a.bytes < b.bytes; });
  fit.quality = quality_of(fit.residuals);
  return fit;
}

std::vector<RegimeFit> fit_regimes(std::vector<TimedPoint> points) {
  std::stable_sort(points.begin(), points.end(), [](const TimedPoint& a, const TimedPoint& b) { return a.bytes < b.bytes; });
  const auto whole = fit_ring(points);
  if (!whole) return {};
  std::optional<std::pair<RegimeFit, RegimeFit>> best;
  double best_cost = 0.5 * squared_relative(*whole);
  for (size_t k = 1; k < points.size(); ++k) {
    if (points[k].bytes == points[k - 1].bytes) continue;
    const std::vector<TimedPoint> small(points.begin(), points.begin() + static_cast<std::ptrdiff_t>(k));
    const std::vector<TimedPoint> large(points.begin() + static_cast<std::ptrdiff_t>(k), points.end());
    if (distinct_sizes(small) < kMinRegimePoints || distinct_sizes(large) < kMinRegimePoints) continue;
    auto s = fit_ring(small, "small messages");
    auto l = fit_ring(large, "large messages");
    if (!s || !l) continue;
    const double cost = squared_relative(*s) + squared_relative(*l);
    if (cost < best_cost) {
      best_cost = cost;
      best = std::make_pair(std::move(*s), std::move(*l));
    }
  }
  if (!best) return {*whole};
  return {std::move(best->first), std::move(best->second)};
}

AlphaBeta from_pair(double half_rtt_s, double goodput_bytes_per_s) {
  return {half_rtt_s, goodput_bytes_per_s > 0 ? 1.0 / goodput_bytes_per_s : 0.0};
}

int64_t bucket_count(double grad_bytes, double bucket_bytes) {
  if (grad_bytes <= 0 || bucket_bytes <= 0) return 0;
  return static_cast<int64_t>(std::ceil(grad_bytes / bucket_bytes));
}

namespace {

// The time of one collective per bucket, summed over the gradient's buckets (the last one partial).
template <class PerBucket>
double over_buckets(double grad_bytes, double bucket_bytes, PerBucket time_of) {
  const double full = std::floor(grad_bytes / bucket_bytes);
  const double rest = grad_bytes - full * bucket_bytes;
  return full * time_of(bucket_bytes) + (rest > 0 ? time_of(rest) : 0.0);
}

// A step's times from its compute, its communication and the fixed model's step time: the bounds (no
// overlap, perfect overlap), the fraction of each the GPUs wait, and the scaling efficiency.
StepEstimate step_times(int nodes, double bytes_per_node, double compute_s, double comm_s, double model_s) {
  StepEstimate e;
  e.nodes = nodes;
  e.bytes_per_node = bytes_per_node;
  e.comm_s = comm_s;
  e.no_overlap_s = compute_s + comm_s;
  e.perfect_overlap_s = std::max(compute_s, comm_s);
  e.model_s = model_s;
  auto wait = [&](double step) { return step > 0 ? (step - compute_s) / step : 0.0; };
  e.wait_no_overlap = wait(e.no_overlap_s);
  e.wait_perfect = wait(e.perfect_overlap_s);
  e.wait_model = wait(e.model_s);
  e.scaling_efficiency = e.model_s > 0 ? compute_s / e.model_s : 1.0;
  return e;
}

}  // namespace

double bucketed_allreduce_s(const AlphaBeta& m, int n, double grad_bytes, double bucket_bytes) {
  if (n < 2 || grad_bytes <= 0) return 0;
  return over_buckets(grad_bytes, bucket_bytes, [&](double bytes) { return ring_allreduce_s(m, n, bytes); });
}

StepEstimate estimate_step(const AlphaBeta& m, int nodes, double grad_bytes, double bucket_bytes, double compute_s,
                           double overlappable) {
  const double comm_s = bucketed_allreduce_s(m, nodes, grad_bytes, bucket_bytes);
  return step_times(nodes, ring_bytes_per_rank(nodes, grad_bytes), compute_s, comm_s,
                    compute_s + std::max(0.0, comm_s - overlappable * compute_s));
}

ShardedComm fully_sharded_comm(const AlphaBeta& m, int n, double grad_bytes, double bucket_bytes) {
  if (n < 2 || grad_bytes <= 0) return {};
  const double one = over_buckets(grad_bytes, bucket_bytes, [&](double bytes) { return ring_half_s(m, n, bytes); });
  return {one, 2 * one};  // forward: one all-gather per bucket; backward: an all-gather and a reduce-scatter
}

StepEstimate estimate_sharded_step(const AlphaBeta& m, int nodes, double grad_bytes, double bucket_bytes,
                                   double compute_s, double overlappable) {
  const ShardedComm c = fully_sharded_comm(m, nodes, grad_bytes, bucket_bytes);
  return step_times(nodes, nodes < 2 ? 0 : 3.0 * (nodes - 1) / nodes * grad_bytes, compute_s, c.total_s(),
                    compute_s + std::max(0.0, c.forward_s - (1 - overlappable) * compute_s) +
                        std::max(0.0, c.backward_s - overlappable * compute_s));
}

StepEstimate estimate(Sharding s, const AlphaBeta& m, int nodes, double grad_bytes, double bucket_bytes,
                      double compute_s) {
  return s == Sharding::full ? estimate_sharded_step(m, nodes, grad_bytes, bucket_bytes, compute_s)
                             : estimate_step(m, nodes, grad_bytes, bucket_bytes, compute_s);
}

double step_comm_s(Sharding s, const AlphaBeta& m, int nodes, double grad_bytes, double bucket_bytes) {
  return s == Sharding::full ? fully_sharded_comm(m, nodes, grad_bytes, bucket_bytes).total_s()
                             : bucketed_allreduce_s(m, nodes, grad_bytes, bucket_bytes);
}

std::optional<int> nodes_where_comm_exceeds_compute(const AlphaBeta& m, double grad_bytes, double bucket_bytes,
                                                    double compute_s, int max_nodes, Sharding sharding) {
  for (int n = 2; n <= max_nodes; ++n)
    if (step_comm_s(sharding, m, n, grad_bytes, bucket_bytes) > compute_s) return n;
  return std::nullopt;
}

double ethernet_ceiling_Bps(double rate_Gbps) { return tcp_goodput(rate_Gbps, EthernetFraming{}).value * 1e9 / 8; }

AlphaBeta at_link_speed(const AlphaBeta& measured, double efficiency, double rate_Gbps) {
  const double bw = efficiency * ethernet_ceiling_Bps(rate_Gbps);
  return {measured.alpha_s, bw > 0 ? 1.0 / bw : 0.0};
}

double transfer_s(const AlphaBeta& m, double bytes) { return m.alpha_s + bytes * m.beta_s_per_byte; }

}  // namespace gpunet::report::training
