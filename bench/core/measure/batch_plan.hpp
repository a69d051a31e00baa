// How many iterations to time and how to group them, from an estimate of one iteration. Pure.
// An iteration that is short against the clock's cost is timed in batches (as OSU and nccl-tests
// time a loop as a whole): a batch lasts at least kClockReadingsPerBatch clock readings, so that
// reading the clock costs at most 1/kClockReadingsPerBatch of the time measured. A long iteration is
// timed on its own (a batch of one). Each batch gives one sample: its mean time per iteration.
// A batch also lasts at least kMinBatch_s: the samples are reduced across ranks batch by batch (the
// slowest rank's), and the ranks' batch boundaries lie a few microseconds apart, so in a batch of
// 30 us that skew entered every sample (an 8-byte allreduce read 1.2x a plain loop timed as a whole).
#pragma once

#include <cstdint>

namespace gpunet::bench::measure {

inline constexpr double kClockReadingsPerBatch = 1000;
inline constexpr double kMinBatch_s = 1e-3;
inline constexpr int kMinBatches = 5;     // when iterations are batched: enough samples for a spread
inline constexpr int kMaxSamples = 1000;  // samples kept per figure

// Iterations for a per-iteration estimate: ceil(budget / estimate), clamped to [min_iters, max_iters].
int adaptive_iterations(double estimate_s, double budget_s, int min_iters, int max_iters);

struct Budget {
  int min_iters = 10;     // -n: at least this many timed iterations
  int max_iters = 10000;  // --max-iters: at most this many, unless batching needs more (kMinBatches)
  double budget_s = 0.1;  // --budget: seconds of timed iterations per figure
};

struct BatchPlan {
  int batches = 1;          // samples
  int iters_per_batch = 1;  // 1: every iteration timed on its own
  int64_t iterations() const { return static_cast<int64_t>(batches) * iters_per_batch; }
  bool batched() const { return iters_per_batch > 1; }
};

// Iterations a batch needs so that it lasts kClockReadingsPerBatch clock readings and kMinBatch_s (>= 1).
int iterations_per_batch(double estimate_s, double clock_cost_s);

// The plan for an iteration estimated at estimate_s with a clock that costs clock_cost_s a reading:
// about adaptive_iterations() iterations in batches of iterations_per_batch(), at least kMinBatches
// batches when batched, at most kMaxSamples batches (larger batches instead), never fewer than
// min_iters iterations.
BatchPlan plan_batches(double estimate_s, double clock_cost_s, const Budget& b);

// A fixed number of batches sharing the budget (as Google Benchmark's repetitions of a minimum
// time): `batches` batches of ceil(budget / batches / estimate) iterations, at least one each.
BatchPlan plan_fixed_batches(double estimate_s, int batches, double budget_s);

}  // namespace gpunet::bench::measure
