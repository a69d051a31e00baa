#include "report/judge/baseline_stats.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace gpunet::report {

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const double n1 = static_cast<double>(a.size()), n2 = static_cast<double>(b.size());
  if (a.empty() || b.empty()) return 1.0;
  std::vector<std::pair<double, int>> all;  // value, which sample
  all.reserve(a.size() + b.size());
  for (double v : a) all.emplace_back(v, 0);
  for (double v : b) all.emplace_back(v, 1);
  std::sort(all.begin(), all.end());
  // Average ranks over runs of ties; accumulate the rank sum of `a` and the tie correction term.
  double rank_sum_a = 0, ties = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double avg_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k)
      if (all[k].second == 0) rank_sum_a += avg_rank;
    ties += t * t * t - t;
    i = j;
  }
  const double n = n1 + n2;
  const double u = rank_sum_a - n1 * (n1 + 1) / 2;
  const double mean = n1 * n2 / 2;
  const double var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
  if (var <= 0) return 1.0;
  const double z = std::max(0.0, std::fabs(u - mean) - 0.5) / std::sqrt(var);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

double mann_whitney_smallest_p(std::size_t n1, std::size_t n2) {
  std::vector<double> a(n1), b(n2);
  for (std::size_t i = 0; i < n1; ++i) a[i] = static_cast<double>(i);
  for (std::size_t i = 0; i < n2; ++i) b[i] = static_cast<double>(n1 + i);
  return mann_whitney_p(a, b);
}

bool entirely_below(const std::vector<double>& low, const std::vector<double>& high) {
  if (low.empty() || high.empty()) return false;
  return *std::max_element(low.begin(), low.end()) < *std::min_element(high.begin(), high.end());
}

std::vector<double> quantile_summary(std::vector<double> samples, std::size_t keep) {
  std::sort(samples.begin(), samples.end());
  if (samples.size() <= keep || keep == 0) return samples;
  std::vector<double> out(keep);
  const double n = static_cast<double>(samples.size());
  for (std::size_t i = 0; i < keep; ++i) {
    const auto idx = static_cast<std::size_t>((static_cast<double>(i) + 0.5) * n / static_cast<double>(keep));
    out[i] = samples[std::min(idx, samples.size() - 1)];
  }
  return out;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace gpunet::report
