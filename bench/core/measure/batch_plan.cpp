#include "bench/core/measure/batch_plan.hpp"

#include <algorithm>
#include <cmath>

namespace gpunet::bench::measure {

namespace {

int rounded_up_quotient(int64_t a, int64_t b) { return static_cast<int>((a + b - 1) / b); }

}  // namespace

int adaptive_iterations(double estimate_s, double budget_s, int min_iters, int max_iters) {
  if (estimate_s <= 0) return std::max(min_iters, max_iters);
  const double want = std::ceil(budget_s / estimate_s);
  return static_cast<int>(std::clamp(want, static_cast<double>(min_iters), static_cast<double>(std::max(min_iters, max_iters))));
}

int iterations_per_batch(double estimate_s, double clock_cost_s) {
  const double batch_s = std::max(kClockReadingsPerBatch * clock_cost_s, kMinBatch_s);
  if (estimate_s >= batch_s) return 1;
  if (estimate_s <= 0) return static_cast<int>(kClockReadingsPerBatch);
  return static_cast<int>(std::min(std::ceil(batch_s / estimate_s), 1e6));
}

BatchPlan plan_batches(double estimate_s, double clock_cost_s, const Budget& b) {
  const int min_iters = std::max(1, b.min_iters);
  const int total = adaptive_iterations(estimate_s, b.budget_s, min_iters, b.max_iters);
  BatchPlan p;
  p.iters_per_batch = iterations_per_batch(estimate_s, clock_cost_s);
  p.batches = rounded_up_quotient(total, p.iters_per_batch);
  if (p.batched()) p.batches = std::max(p.batches, kMinBatches);
  if (p.batches > kMaxSamples) {
    p.iters_per_batch = rounded_up_quotient(total, kMaxSamples);
    p.batches = rounded_up_quotient(total, p.iters_per_batch);
  }
  return p;
}

BatchPlan plan_fixed_batches(double estimate_s, int batches, double budget_s) {
  BatchPlan p;
  p.batches = std::max(1, batches);
  const double per_batch_s = budget_s / p.batches;
  p.iters_per_batch = estimate_s > 0 ? static_cast<int>(std::clamp(std::ceil(per_batch_s / estimate_s), 1.0, 1e6)) : 1;
  return p;
}

}  // namespace gpunet::bench::measure
