#include "report/model/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpunet::report {

double percentile(std::vector<double> samples, double q) {
  if (samples.empty()) return 0.0;
  std::sort(samples.begin(), samples.end());
  const double rank = std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(samples.size()));
  const auto idx = static_cast<size_t>(std::max(1.0, rank)) - 1;
  return samples[std::min(idx, samples.size() - 1)];
}

TimeStats compute_stats(const std::vector<double>& samples) {
  TimeStats s;
  s.samples = static_cast<int64_t>(samples.size());
  if (samples.empty()) return s;
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  s.min = *lo;
  s.max = *hi;
  const double n = static_cast<double>(samples.size());
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  double sq = 0;
  for (double x : samples) sq += (x - s.mean) * (x - s.mean);
  s.stddev = samples.size() > 1 ? std::sqrt(sq / (n - 1)) : 0.0;
  s.cv = s.mean > 0 ? s.stddev / s.mean : 0.0;
  s.p50 = percentile(samples, 0.50);
  s.p99 = percentile(samples, 0.99);
  return s;
}

}  // namespace gpunet::report
