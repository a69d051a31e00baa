// The measurement layer: the batch plan (pure), and the loop driven by a scripted timer, so that
// what is timed and what reaches the record can be counted exactly.
#include <algorithm>
#include <numeric>

#include <gtest/gtest.h>

#include "bench/core/measure/batch_plan.hpp"
#include "bench/core/measure/measurement.hpp"

using namespace gpunet::bench::measure;

namespace {

constexpr double kCost = 3e-8;  // a clock reading, as MPI_Wtime here

// A timer whose iterations last `iter_s` each (no real clock), counting what it was asked to run.
struct ScriptedTimer {
  explicit ScriptedTimer(double iteration_s) : iter_s(iteration_s) {}
  double iter_s;
  std::vector<int> batches;  // iterations of every batch_s call, in order
  int barriers = 0, reductions = 0;
  Timer timer() {
    Timer t;
    t.clock = "scripted";
    t.clock_cost_s = kCost;
    t.batch_s = [this](int iters) {
      batches.push_back(iters);
      return iters * iter_s;
    };
    t.barrier = [this] { ++barriers; };
    t.reduce = [this](std::vector<double>& s) {
      ++reductions;
      for (double& x : s) x *= 2;  // visible in the result: the samples went through the reduction
    };
    return t;
  }
};

}  // namespace

TEST(BatchPlan, LongIterationsAreTimedOneByOne) {
  const auto p = plan_batches(0.01, kCost, {10, 10000, 0.1});
  EXPECT_EQ(p.iters_per_batch, 1);
  EXPECT_EQ(p.batches, 10);
  EXPECT_FALSE(p.batched());
}

TEST(BatchPlan, ShortIterationsAreBatchedSoTheClockCostsAThousandth) {
  const double est = 4e-7;  // an 8-byte allreduce on one node
  const auto p = plan_batches(est, kCost, {10, 10000, 0.1});
  EXPECT_TRUE(p.batched());
  EXPECT_GE(p.iters_per_batch * est, kClockReadingsPerBatch * kCost);
  EXPECT_GE(p.iters_per_batch * est, kMinBatch_s * (1 - 1e-12));  // long against the ranks' skew
  EXPECT_GE(p.iterations(), 10000);  // the budget asks for more than --max-iters: capped there, unless
  EXPECT_LE(p.iterations(), std::max<int64_t>(10000 + p.iters_per_batch - 1, int64_t{kMinBatches} * p.iters_per_batch));
  EXPECT_GE(p.batches, kMinBatches);  // ... five batches of at least 1 ms need more
  EXPECT_LE(p.batches, kMaxSamples);
}

TEST(BatchPlan, AZeroBudgetStillGivesFiveBatchesWhenBatched) {
  const auto p = plan_batches(4e-7, kCost, {10, 10000, 0});
  EXPECT_EQ(p.batches, kMinBatches);
  EXPECT_EQ(p.iters_per_batch, iterations_per_batch(4e-7, kCost));
  const auto single = plan_batches(1e-3, kCost, {2, 10000, 0});
  EXPECT_EQ(single.batches, 2);  // -n 2 of long iterations: exactly two
}

TEST(BatchPlan, SamplesAreBoundedAndIterationsNeverFallBelowTheFloor) {
  for (double est : {1e-9, 1e-7, 1e-6, 2.9e-5, 3e-5, 1e-4, 1e-2, 1.0})
    for (int max_iters : {1, 10, 10000, 1000000})
      for (double budget : {0.0, 0.1, 10.0}) {
        const auto p = plan_batches(est, kCost, {10, max_iters, budget});
        EXPECT_LE(p.batches, kMaxSamples) << est << " " << max_iters << " " << budget;
        EXPECT_GE(p.iterations(), 10) << est << " " << max_iters << " " << budget;
        EXPECT_GE(p.batches, 1);
      }
  EXPECT_EQ(adaptive_iterations(0.001, 0.1, 10, 10000), 100);
  EXPECT_EQ(adaptive_iterations(0.001, 0.1, 200, 10000), 200);
  EXPECT_EQ(adaptive_iterations(1e-9, 0.1, 10, 500), 500);
}

TEST(BatchPlan, FixedBatchesShareTheBudget) {
  const auto p = plan_fixed_batches(0.01, 3, 0.3);  // three repetitions of 0.1 s of 10 ms passes
  EXPECT_EQ(p.batches, 3);
  EXPECT_EQ(p.iters_per_batch, 10);
  EXPECT_EQ(plan_fixed_batches(1.0, 2, 0.02).iters_per_batch, 1);
}

TEST(Measurement, FixedBatchesGiveThatManySamples) {
  ScriptedTimer s(0.01);
  Rules rules{1, {3, 10000, 0.3}, 3};
  const Timing t = measure_loop(rules, s.timer());
  EXPECT_EQ(t.samples_us.size(), 3u);
  EXPECT_EQ(t.plan.iters_per_batch, 10);
  for (double x : t.samples_us) EXPECT_NEAR(x, 2 * 1e4, 1e-6);
}

TEST(Measurement, BatchTimingGivesOneSamplePerBatchAndTheRecordAgrees) {
  ScriptedTimer s(4e-7);
  const Timing t = measure_loop({2, {10, 10000, 0.1}, 0}, s.timer());
  ASSERT_TRUE(t.plan.batched());
  ASSERT_EQ(static_cast<int>(t.samples_us.size()), t.plan.batches);
  // warm-up, three one-iteration probes, the refining batch, then exactly the planned batches
  ASSERT_EQ(static_cast<int>(s.batches.size()), 5 + t.plan.batches);
  EXPECT_EQ(s.batches[0], 2);
  EXPECT_EQ(s.batches[1], 1);
  EXPECT_EQ(s.batches[2], 1);
  EXPECT_EQ(s.batches[3], 1);
  EXPECT_EQ(s.batches[4], iterations_per_batch(4e-7, kCost));
  for (size_t i = 5; i < s.batches.size(); ++i) EXPECT_EQ(s.batches[i], t.plan.iters_per_batch);
  EXPECT_EQ(s.barriers, 3);
  EXPECT_EQ(s.reductions, 1);
  for (double x : t.samples_us) EXPECT_NEAR(x, 2 * 0.4, 1e-9);  // per-iteration mean of the batch, reduced

  gpunet::report::Record rec;
  record_timing(rec, t);
  EXPECT_EQ(rec.time_us.samples, t.plan.batches);
  EXPECT_NEAR(rec.time_us.mean, 0.8, 1e-9);
  EXPECT_NEAR(rec.time_us.p50, 0.8, 1e-9);
  EXPECT_EQ(rec.extra["samples_us"].size(), t.samples_us.size());
  EXPECT_EQ(rec.extra["timing"]["method"], "batch");
  EXPECT_EQ(rec.extra["timing"]["batches"], t.plan.batches);
  EXPECT_EQ(rec.extra["timing"]["iters_per_batch"], t.plan.iters_per_batch);
  EXPECT_EQ(rec.extra["timing"]["iterations"], t.plan.iterations());
  EXPECT_EQ(rec.extra["timing"]["clock"], "scripted");
}

TEST(Measurement, LongIterationsAreSampledOneByOne) {
  ScriptedTimer s(0.02);
  const Timing t = measure_loop({1, {10, 10000, 0.1}, 0}, s.timer());
  EXPECT_EQ(t.plan.iters_per_batch, 1);
  EXPECT_EQ(t.samples_us.size(), 10u);
  EXPECT_EQ(s.batches.size(), 2u + 10u);  // warm-up, one probe (not cheap), ten iterations; no refinement
  gpunet::report::Record rec;
  record_timing(rec, t);
  EXPECT_EQ(rec.extra["timing"]["method"], "iteration");
  EXPECT_EQ(rec.time_us.samples, 10);
}

TEST(Measurement, SelfTimedBatchesSumTheirIterations) {
  int calls = 0;
  const Timer t = self_timed("cudaEvent", 5e-7, [&] { return ++calls * 1e-3; });
  EXPECT_DOUBLE_EQ(t.batch_s(3), 6e-3);
  EXPECT_EQ(calls, 3);
}

TEST(Measurement, SteadyClockTimesRealBatches) {
  int64_t ran = 0;
  const Timing t = measure_loop({0, {10, 100000, 0.001}, 0}, steady_clock_timer([&] { ++ran; }));
  EXPECT_EQ(t.clock, "steady_clock");
  EXPECT_EQ(static_cast<int>(t.samples_us.size()), t.plan.batches);
  EXPECT_GE(ran, t.plan.iterations());  // plus the estimate
  for (double x : t.samples_us) EXPECT_GE(x, 0.0);
}
