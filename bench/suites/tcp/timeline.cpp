#include "bench/suites/tcp/timeline.hpp"

#include <algorithm>
#include <cmath>

#include "report/model/stats.hpp"

namespace gpunet::bench::tcp {

Timeline::Timeline(double interval_s) : interval_s_(interval_s > 0 ? interval_s : 0.1) {}

void Timeline::add(double t_s, int64_t bytes) {
  const auto idx = static_cast<size_t>(std::max(0.0, t_s) / interval_s_);
  if (idx >= bins_.size()) bins_.resize(idx + 1, 0);
  bins_[idx] += bytes;
}

std::vector<double> Timeline::gbps(double end_s) const {
  std::vector<double> out;
  for (size_t i = 0; i < bins_.size() || static_cast<double>(i) * interval_s_ < end_s; ++i) {
    const double start = static_cast<double>(i) * interval_s_;
    const double len = std::min(interval_s_, end_s - start);
    if (len < interval_s_ / 2) break;
    const double bytes = i < bins_.size() ? static_cast<double>(bins_[i]) : 0.0;
    out.push_back(bytes * 8 / len / 1e9);
  }
  return out;
}

LatencySummary summarize_latency(const std::vector<double>& us) {
  LatencySummary s;
  s.samples = static_cast<int64_t>(us.size());
  if (us.empty()) return s;
  const auto t = report::compute_stats(us);
  s.min = t.min;
  s.max = t.max;
  s.mean = t.mean;
  s.stddev = t.stddev;
  std::vector<double> sorted = us;
  std::sort(sorted.begin(), sorted.end());
  s.p50 = report::percentile(sorted, 0.50);
  s.p90 = report::percentile(sorted, 0.90);
  s.p99 = report::percentile(sorted, 0.99);
  s.p999 = report::percentile(sorted, 0.999);
  double jit = 0;
  for (size_t i = 1; i < us.size(); ++i) jit += std::fabs(us[i] - us[i - 1]);
  s.jitter = us.size() > 1 ? jit / static_cast<double>(us.size() - 1) : 0.0;
  return s;
}

StabilitySummary summarize_stability(const std::vector<double>& gbps, double interval_s, double threshold_Gbps) {
  StabilitySummary s;
  s.threshold_Gbps = threshold_Gbps;
  s.intervals = static_cast<int64_t>(gbps.size());
  if (gbps.empty()) return s;
  const auto [lo, hi] = std::minmax_element(gbps.begin(), gbps.end());
  s.min_Gbps = *lo;
  s.max_Gbps = *hi;
  s.p1_Gbps = report::percentile(gbps, 0.01);
  s.p50_Gbps = report::percentile(gbps, 0.50);
  for (size_t i = 0; i < gbps.size(); ++i) {
    if (gbps[i] >= threshold_Gbps) continue;
    const double start = static_cast<double>(i) * interval_s;
    if (!s.dips.empty() && std::fabs(s.dips.back().end_s - start) < interval_s / 4) {
      s.dips.back().end_s = start + interval_s;
      s.dips.back().min_Gbps = std::min(s.dips.back().min_Gbps, gbps[i]);
    } else {
      s.dips.push_back({start, start + interval_s, gbps[i]});
    }
    s.below_s += interval_s;
  }
  return s;
}

}  // namespace gpunet::bench::tcp
