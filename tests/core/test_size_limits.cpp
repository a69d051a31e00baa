// Sizes that cannot be allocated, and sweeps too long to run, are usage errors found while parsing.
#include <gtest/gtest.h>

#include "bench/core/size_limits.hpp"
#include "bench/core/sizes.hpp"
#include "tests/support/parse_options.hpp"

using namespace gpunet::bench;

namespace {

constexpr int64_t kGiB = 1LL << 30;

Config config_with(int64_t max_bytes) {
  Config c;
  c.max_bytes = max_bytes;
  return c;
}

}  // namespace

TEST(SizeLimits, DefaultsFitASmallMachine) { EXPECT_EQ(size_limit_problem(Config{}, 2 * kGiB), ""); }

TEST(SizeLimits, MaxBytesMustFitTwoBuffersInMemory) {
  EXPECT_EQ(size_limit_problem(config_with(4 * kGiB), 8 * kGiB), "");
  const auto why = size_limit_problem(config_with(5 * kGiB), 8 * kGiB);
  EXPECT_NE(why.find("-e/--maxbytes 5G"), std::string::npos) << why;
  EXPECT_NE(why.find("at most 4G"), std::string::npos) << why;
  EXPECT_EQ(size_limit_problem(config_with(5 * kGiB), 0), "") << "unknown memory is not checked";
}

TEST(SizeLimits, MpiCountMustFitAnInt) {
  Config c = config_with(9 * kGiB);  // 9G of float is more than INT_MAX elements
  const auto why = size_limit_problem(c, 0);
  EXPECT_NE(why.find("MPI count"), std::string::npos) << why;
  c.dtype = "double";                // 8-byte elements: 9G is about 1.2 G elements, fine
  EXPECT_EQ(size_limit_problem(c, 0), "");
}

TEST(SizeLimits, OtherBuffersAreBounded) {
  Config c;
  c.scaling_bytes = 3 * kGiB;
  EXPECT_NE(size_limit_problem(c, 4 * kGiB).find("--scaling-size"), std::string::npos);
  c = Config{};
  c.node_bytes = 2 * kGiB;
  EXPECT_NE(size_limit_problem(c, 4 * kGiB).find("--node-size"), std::string::npos);
  c = Config{};
  c.pcie_bytes = 3 * kGiB;
  EXPECT_NE(size_limit_problem(c, 4 * kGiB).find("--pcie-size"), std::string::npos);
}

TEST(SizeLimits, SweepLengthIsBounded) {
  Config c;
  c.min_bytes = 1;
  c.max_bytes = 1LL << 20;
  c.step_bytes = 1;  // a million sizes
  EXPECT_NE(size_limit_problem(c, 0).find("more than 10000 sizes"), std::string::npos);
  c.step_bytes = 1024;  // 1024 sizes
  EXPECT_EQ(size_limit_problem(c, 0), "");
}

TEST(SizeLimits, SweepLengthCountsWhatTheSweepGives) {
  EXPECT_EQ(sweep_length(8, 64, 2, 0, 100), size_sweep(8, 64, 2, 0).size());
  EXPECT_EQ(sweep_length(100, 350, 2, 100, 100), size_sweep(100, 350, 2, 100).size());
  EXPECT_EQ(sweep_length(1, 1LL << 40, 2, 1, 50), 51u) << "stops counting past the limit";
  EXPECT_EQ(sweep_length(64, 8, 2, 0, 100), 0u);
}

TEST(SizeLimits, HugeStepDoesNotOverflow) {
  EXPECT_EQ(size_sweep(1LL << 30, 1LL << 31, 2, INT64_MAX - 5), (std::vector<int64_t>{1LL << 30}));
}

TEST(SizeLimits, ParseRefusesHugeSizesBeforeAnyMpiWork) {
  option_tests::expect_usage_error({"-b", "99999999G", "-e", "99999999G"}, "99999999G");
  option_tests::expect_usage_error({"--scaling-size", "99999999G"}, "--scaling-size");
}
