// The train suite's step schedule: bucket sizes and when each bucket becomes ready during the
// backward part of the compute phase; on a GPU, how many GEMMs a step is and after which each bucket starts.
#include <algorithm>
#include <chrono>

#include <gtest/gtest.h>

#include "bench/suites/train/gpu_step.hpp"
#include "bench/suites/train/step.hpp"

using namespace gpunet::bench;

TEST(TrainStep, BucketSizesEndWithTheRemainder) {
  EXPECT_EQ(bucket_sizes(60, 25), (std::vector<int64_t>{25, 25, 10}));
  EXPECT_EQ(bucket_sizes(50, 25), (std::vector<int64_t>{25, 25}));
  EXPECT_EQ(bucket_sizes(10, 25), (std::vector<int64_t>{10}));
  EXPECT_TRUE(bucket_sizes(0, 25).empty());
  EXPECT_TRUE(bucket_sizes(10, 0).empty());
}

TEST(TrainStep, BucketsBecomeReadyAcrossTheBackwardPart) {
  // C = 0.9 s, f = 2/3: forward 0.3 s, then 0.6 s of backward over 4 equal buckets.
  StepPlan p;
  p.compute_s = 0.9;
  p.overlappable = 2.0 / 3.0;
  p.grad_bytes = 400;
  p.bucket_bytes = 100;
  const auto t = bucket_ready_s(p);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_NEAR(t[0], 0.45, 1e-12);
  EXPECT_NEAR(t[1], 0.60, 1e-12);
  EXPECT_NEAR(t[2], 0.75, 1e-12);
  EXPECT_NEAR(t[3], 0.90, 1e-12);  // the last bucket at the end of compute
}

TEST(TrainStep, HostComputeRunsItsLengthAndPollsOnlyInsideIt) {
  using clock = std::chrono::steady_clock;
  double latest_poll = 0;
  const auto start = clock::now();
  host_compute(0.02, [&](double elapsed) { latest_poll = std::max(latest_poll, elapsed); });
  EXPECT_GE(std::chrono::duration<double>(clock::now() - start).count(), 0.02);
  EXPECT_LT(latest_poll, 0.02);
}

TEST(GpuStepSchedule, GemmsPerStepRoundToTheComputeTime) {
  EXPECT_EQ(gpunet::bench::gemms_for(0.5, 0.002), 250);
  EXPECT_EQ(gpunet::bench::gemms_for(0.0004, 0.002), 1);  // never fewer than one
  EXPECT_EQ(gpunet::bench::gemms_for(0.5, 0), 1);
}

TEST(GpuStepSchedule, EachBucketStartsAfterTheGemmItIsReadyBy) {
  // GEMMs of 50 ms, 10 per step: ready at 0.25, 0.375, 0.5 s -> after GEMM 5, 8 (7.5 rounded up), 10;
  // a time past the last GEMM is clamped to it, one before the first to the first.
  const auto after = gpunet::bench::buckets_ready_after_gemm({0.25, 0.375, 0.5, 0.6, 0.0}, 0.05, 10);
  EXPECT_EQ(after, (std::vector<int>{5, 8, 10, 10, 1}));
}
