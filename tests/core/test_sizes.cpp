#include <gtest/gtest.h>

#include "bench/core/sizes.hpp"

using namespace gpunet::bench;

TEST(Sizes, ParsesPlainAndSuffixed) {
  EXPECT_EQ(parse_size("8"), 8);
  EXPECT_EQ(parse_size("64K"), 64 * 1024);
  EXPECT_EQ(parse_size("64k"), 64 * 1024);
  EXPECT_EQ(parse_size("1M"), 1 << 20);
  EXPECT_EQ(parse_size("2G"), 2LL << 30);
  EXPECT_EQ(parse_size("1.5M"), 3 << 19);
  EXPECT_EQ(parse_size("64MB"), 64 << 20);
  EXPECT_EQ(parse_size("64MiB"), 64 << 20);
}

TEST(Sizes, RejectsBadInput) {
  for (const char* bad : {"", "abc", "-1", "0", "1X", "K", "1.5", "12MM", "nan", "inf", "1e30G"})
    EXPECT_FALSE(parse_size(bad).has_value()) << bad;
}

TEST(Sizes, Formats) {
  EXPECT_EQ(format_size(8), "8");
  EXPECT_EQ(format_size(1024), "1K");
  EXPECT_EQ(format_size(64LL << 20), "64M");
  EXPECT_EQ(format_size(1000), "1000");
  EXPECT_EQ(format_size(1536), "1536");
}

TEST(Sizes, SweepMultipliesAndIncludesBothEnds) {
  EXPECT_EQ(size_sweep(8, 64, 2, 0), (std::vector<int64_t>{8, 16, 32, 64}));
  EXPECT_EQ(size_sweep(1024, 1024, 2, 0), (std::vector<int64_t>{1024}));
  EXPECT_EQ(size_sweep(10, 40, 2, 0), (std::vector<int64_t>{10, 20, 40}));
  EXPECT_EQ(size_sweep(100, 350, 2, 100), (std::vector<int64_t>{100, 200, 300}));
  EXPECT_TRUE(size_sweep(64, 8, 2, 0).empty());
}
