#include <gtest/gtest.h>

#include "report/model/stats.hpp"

using namespace gpunet::report;

TEST(Stats, KnownSample) {
  const auto s = compute_stats({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 10);
  EXPECT_DOUBLE_EQ(s.mean, 5.5);
  EXPECT_DOUBLE_EQ(s.p50, 5);   // nearest rank: ceil(0.5*10) = 5th value
  EXPECT_DOUBLE_EQ(s.p99, 10);
  EXPECT_NEAR(s.stddev, 3.0276503540974917, 1e-12);
  EXPECT_NEAR(s.cv, 3.0276503540974917 / 5.5, 1e-12);
  EXPECT_EQ(s.samples, 10);
}

TEST(Stats, PercentileNearestRankUnsorted) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);
  EXPECT_DOUBLE_EQ(percentile(v, 0.99), 99);
  EXPECT_DOUBLE_EQ(percentile(v, 0.50), 50);
  EXPECT_DOUBLE_EQ(percentile(v, 0.0), 1);
  EXPECT_DOUBLE_EQ(percentile(v, 1.0), 100);
  EXPECT_DOUBLE_EQ(percentile({}, 0.5), 0);
}

TEST(Stats, SingleAndEmpty) {
  const auto one = compute_stats({7});
  EXPECT_DOUBLE_EQ(one.min, 7);
  EXPECT_DOUBLE_EQ(one.p99, 7);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
  EXPECT_EQ(compute_stats({}).samples, 0);
}
