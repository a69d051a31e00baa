// --time-budget (bench/core/time_budget): durations as the plan line writes them read back, a plan that
// fits is left alone, a large cluster gives up flow time first and then sampled pairs, every rank
// reaches the same choices whatever its seed, and a budget the cheapest plan cannot meet says so.
#include <gtest/gtest.h>

#include "bench/core/plan.hpp"
#include "bench/core/time_budget.hpp"
#include "tests/support/parse_options.hpp"

namespace gpunet::bench {
namespace {

using option_tests::parse;

Config options(std::vector<std::string> args) {
  const auto r = parse(std::move(args));
  EXPECT_TRUE(r.config) << r.message;
  return r.config.value_or(Config{});
}

TEST(TimeBudget, ReadsDurationsAsThePlanLineWritesThem) {
  EXPECT_EQ(parse_duration_text("30m"), 1800.0);
  EXPECT_EQ(parse_duration_text("1h30m"), 5400.0);
  EXPECT_EQ(parse_duration_text("1h02m"), 3720.0);
  EXPECT_EQ(parse_duration_text("4m10s"), 250.0);
  EXPECT_EQ(parse_duration_text("90"), 90.0);
  EXPECT_EQ(parse_duration_text("1.5h"), 5400.0);
  for (const char* bad : {"", "m", "30x", "30m1h", "1h1h", "0", "0m", "-5m", "nan", "inf", "30m ", "1e400s"})
    EXPECT_FALSE(parse_duration_text(bad).has_value()) << bad;
}

TEST(TimeBudget, ABadBudgetIsOneUsageLine) {
  option_tests::expect_usage_error({"--time-budget", "half an hour"}, "--time-budget: 'half an hour' is not a duration");
  option_tests::expect_usage_error({"--time-budget", "0"}, "--time-budget");
}

TEST(TimeBudget, APlanThatFitsIsLeftAsGiven) {
  const Config c = options({"--suites", "tcp", "--tcp-tests", "matrix", "--tcp-time", "0.5", "--time-budget", "30m"});
  const BudgetFit fit = fit_time_budget(c, suite_list(), 16, 16);
  EXPECT_TRUE(fit.met);
  EXPECT_TRUE(fit.gave_up.empty());
  EXPECT_EQ(fit.cfg.tcp.time_s, 0.5);
  EXPECT_EQ(fit.cfg.tcp.pairs, "all");
  // 15 rounds x 0.7 s, and 4 re-test rounds of two directions at their most.
  EXPECT_DOUBLE_EQ(fit.worst_s, 15 * 0.7 + 4 * 2 * 0.7);
  EXPECT_EQ(budget_text(fit), "; --time-budget 30m00s: fits as given (at most 16s with re-tests)");
  EXPECT_EQ(budget_text(fit_time_budget(options({"--suites", "tcp"}), suite_list(), 16, 16)), "") << "no budget, no text";
}

TEST(TimeBudget, ALargeClusterGivesUpFlowTimeAndThenPairs) {
  const Config c = options({"--suites", "mpi,tcp", "--time-budget", "30m"});
  const BudgetFit at1024 = fit_time_budget(c, suite_list(), 1024, 1024);
  EXPECT_TRUE(at1024.met);
  EXPECT_EQ(at1024.gave_up, std::vector<std::string>{"--tcp-time 1 (was 2)"}) << "all pairs still fit with 1 s flows";
  EXPECT_LE(at1024.worst_s, 1800);
  const BudgetFit at4096 = fit_time_budget(c, suite_list(), 4096, 4096);
  EXPECT_TRUE(at4096.met);
  ASSERT_EQ(at4096.gave_up.size(), 2u);
  EXPECT_EQ(at4096.gave_up[1].rfind("--tcp-pairs random:", 0), 0u) << at4096.gave_up[1];
  EXPECT_GE(at4096.cfg.tcp.pairs_k, 3);
  EXPECT_EQ(at4096.cfg.tcp.time_s, 1.0);
  EXPECT_LE(at4096.worst_s, 1800);
  EXPECT_EQ(at4096.cfg.tcp.pairs_k, 256) << "the largest sample tried fits";
}

TEST(TimeBudget, EveryRankChoosesTheSameWhateverItsSeed) {
  Config a = options({"--suites", "tcp", "--time-budget", "5m"});
  Config b = a;
  a.tcp.pairs_seed = 1;
  b.tcp.pairs_seed = 987654;
  const BudgetFit fa = fit_time_budget(a, suite_list(), 2048, 2048), fb = fit_time_budget(b, suite_list(), 2048, 2048);
  EXPECT_EQ(fa.gave_up, fb.gave_up);
  EXPECT_EQ(fa.worst_s, fb.worst_s);
  EXPECT_EQ(fa.cfg.tcp.pairs_seed, 1u) << "the run keeps its own seed";
}

TEST(TimeBudget, ABudgetTheCheapestPlanMissesSaysSo) {
  const Config c = options({"--suites", "mpi,tcp", "--time-budget", "10s"});
  const BudgetFit fit = fit_time_budget(c, suite_list(), 512, 512);
  EXPECT_FALSE(fit.met);
  EXPECT_GT(fit.worst_s, 10);
  EXPECT_EQ(fit.cfg.tcp.time_s, 0.5);
  EXPECT_EQ(fit.cfg.tcp.pairs, "random");
  EXPECT_EQ(fit.cfg.tcp.pairs_k, 2);
  EXPECT_EQ(fit.cfg.tcp.retest_rounds, 1);
  EXPECT_EQ(fit.cfg.max_bytes, 1 << 20);
  const std::string line = budget_unmet_line(fit);
  EXPECT_EQ(line.rfind("gpunet-bench: error: --time-budget 10s cannot be met: the cheapest plan (--tcp-time 1 (was 2), ", 0), 0u) << line;
  EXPECT_NE(line.find("give a larger --time-budget or fewer --suites"), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(budget_text(fit).find("--time-budget 10s cannot be met"), std::string::npos) << budget_text(fit);
}

}  // namespace
}  // namespace gpunet::bench
