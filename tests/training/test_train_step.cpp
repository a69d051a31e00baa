// The train suite's step schedule: bucket sizes and when each bucket becomes ready during the
// backward part of the compute phase.
#include <algorithm>
#include <chrono>

#include <gtest/gtest.h>

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
