#include <gtest/gtest.h>

#include "bench/suites/tcp/timeline.hpp"

using namespace gpunet::bench::tcp;

TEST(TcpTimeline, BinsAndPartialLastInterval) {
  Timeline t(0.1);
  t.add(0.00, 125'000'000 / 100);  // 1.25 MB in [0, 0.1): 0.1 Gb/s
  t.add(0.05, 125'000'000 / 100);  // now 2.5 MB: 0.2 Gb/s
  t.add(0.15, 125'000'000 / 100);  // [0.1, 0.2): 0.1 Gb/s
  t.add(0.26, 125'000'000 / 200);  // [0.2, 0.3)
  // end at 0.28: the last interval covers 0.08 s (>= half) and is divided by its own length
  const auto g = t.gbps(0.28);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_NEAR(g[0], 0.2, 1e-12);
  EXPECT_NEAR(g[1], 0.1, 1e-12);
  EXPECT_NEAR(g[2], 0.625e6 * 8 / 0.08 / 1e9, 1e-9);
  // end at 0.24: the last interval is too short and left out
  EXPECT_EQ(t.gbps(0.24).size(), 2u);
  // a silence shows as zeros up to the end
  const auto z = t.gbps(0.6);
  ASSERT_EQ(z.size(), 6u);
  EXPECT_EQ(z[5], 0.0);
}

TEST(TcpTimeline, LatencySummary) {
  std::vector<double> us;
  for (int i = 1; i <= 1000; ++i) us.push_back(i);
  const auto s = summarize_latency(us);
  EXPECT_EQ(s.samples, 1000);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.p50, 500);
  EXPECT_DOUBLE_EQ(s.p90, 900);
  EXPECT_DOUBLE_EQ(s.p99, 990);
  EXPECT_DOUBLE_EQ(s.p999, 999);
  EXPECT_DOUBLE_EQ(s.max, 1000);
  EXPECT_DOUBLE_EQ(s.mean, 500.5);
  EXPECT_DOUBLE_EQ(s.jitter, 1.0);  // consecutive samples differ by 1
  const auto alt = summarize_latency({10, 20, 10, 20});
  EXPECT_DOUBLE_EQ(alt.jitter, 10.0);
  EXPECT_EQ(summarize_latency({}).samples, 0);
}

TEST(TcpTimeline, StabilityDips) {
  // 1 Gb/s with two dips: one of two intervals, one of one.
  const std::vector<double> g{1.0, 0.95, 0.4, 0.3, 0.99, 1.0, 0.6, 1.0, 0.97, 1.0};
  const auto s = summarize_stability(g, 0.1, 0.8);
  EXPECT_EQ(s.intervals, 10);
  EXPECT_DOUBLE_EQ(s.min_Gbps, 0.3);
  EXPECT_DOUBLE_EQ(s.max_Gbps, 1.0);
  EXPECT_DOUBLE_EQ(s.p1_Gbps, 0.3);
  EXPECT_DOUBLE_EQ(s.p50_Gbps, 0.97);
  ASSERT_EQ(s.dips.size(), 2u);
  EXPECT_NEAR(s.dips[0].start_s, 0.2, 1e-12);
  EXPECT_NEAR(s.dips[0].end_s, 0.4, 1e-12);
  EXPECT_DOUBLE_EQ(s.dips[0].min_Gbps, 0.3);
  EXPECT_NEAR(s.dips[1].start_s, 0.6, 1e-12);
  EXPECT_NEAR(s.below_s, 0.3, 1e-12);
  EXPECT_TRUE(summarize_stability(g, 0.1, 0.1).dips.empty());
}
