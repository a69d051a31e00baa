// The training-impact options: parsed into Config::training, validated (finite, positive sizes and
// numbers) with one-line usage errors, and also taken by `gpunet-bench report`.
#include <algorithm>

#include <gtest/gtest.h>

#include "bench/core/options.hpp"
#include "tests/support/parse_options.hpp"

using namespace gpunet::bench;

namespace {

using option_tests::expect_usage_error;
using option_tests::parse;
}  // namespace

TEST(TrainingOptions, DefaultsLeaveTheStatedDefaults) {
  const auto r = parse({});
  ASSERT_TRUE(r.config);
  const auto& t = r.config->training;
  EXPECT_FALSE(t.given);
  EXPECT_FALSE(t.step_compute_s.has_value());
  EXPECT_FALSE(t.model_params.has_value());
  EXPECT_EQ(t.grad_bytes_per_param, 2);
  EXPECT_EQ(t.bucket_bytes, 25 << 20);
}

TEST(TrainingOptions, EveryOptionParses) {
  const auto r = parse({"--model-params", "7e9", "--grad-bytes", "4", "--bucket-size", "50M", "--step-compute-s", "0.25",
                        "--dataset-size", "2T", "--latency-threshold-us", "250"});
  ASSERT_TRUE(r.config) << r.message;
  const auto& t = r.config->training;
  EXPECT_TRUE(t.given);
  EXPECT_EQ(t.model_params, 7e9);
  EXPECT_EQ(t.grad_bytes_per_param, 4);
  EXPECT_EQ(t.bucket_bytes, 50 << 20);
  EXPECT_EQ(t.step_compute_s, 0.25);
  EXPECT_EQ(t.dataset_bytes, 2.0 * (1LL << 40));
  EXPECT_EQ(t.latency_threshold_us, 250);
}

TEST(TrainingOptions, RejectsNonFiniteZeroNegativeAndJunk) {
  expect_usage_error({"--step-compute-s", "0"}, "--step-compute-s");
  expect_usage_error({"--step-compute-s", "-1"}, "--step-compute-s");
  expect_usage_error({"--step-compute-s", "nan"}, "finite positive");
  expect_usage_error({"--model-params", "inf"}, "--model-params");
  expect_usage_error({"--grad-bytes", "2x"}, "--grad-bytes");
  expect_usage_error({"--latency-threshold-us", "1e999"}, "--latency-threshold-us");
  expect_usage_error({"--bucket-size", "0"}, "--bucket-size");
  expect_usage_error({"--dataset-size", "lots"}, "--dataset-size");
}

TEST(TrainingOptions, ReportSubcommandTakesThem) {
  const auto r = parse({"report", "x/report.json", "--step-compute-s", "2"});
  ASSERT_TRUE(r.config) << r.message;
  EXPECT_EQ(r.config->report_input, "x/report.json");
  EXPECT_TRUE(r.config->training.given);
  EXPECT_EQ(r.config->training.step_compute_s, 2.0);
}

TEST(TrainingOptions, TrainSuiteRunsOnlyOnRequest) {
  const auto defaults = parse({});
  ASSERT_TRUE(defaults.config);
  EXPECT_EQ(std::find(defaults.config->suites.begin(), defaults.config->suites.end(), "train"), defaults.config->suites.end());
  const auto r = parse({"--suites", "mpi,train"});
  ASSERT_TRUE(r.config) << r.message;
  EXPECT_EQ(r.config->suites, (std::vector<std::string>{"mpi", "train"}));
  expect_usage_error({"--suites", "trian"}, "train on request");
}

TEST(TrainingOptions, ShardingIsNoneOrFull) {
  const auto r = parse({"--sharding", "full"});
  ASSERT_TRUE(r.config) << r.message;
  EXPECT_EQ(r.config->training.sharding, gpunet::report::training::Sharding::full);
  EXPECT_TRUE(r.config->training.given);
  const auto d = parse({});
  ASSERT_TRUE(d.config);
  EXPECT_EQ(d.config->training.sharding, gpunet::report::training::Sharding::none);
  expect_usage_error({"--sharding", "zero3"}, "--sharding");
}
