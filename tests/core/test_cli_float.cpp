// The float-option helper, and the rule it enforces for every option: no nan, no infinity, no
// overflow, no trailing text, nothing outside the option's range.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "bench/core/cli_float.hpp"
#include "tests/support/parse_options.hpp"

using namespace gpunet::bench;

namespace {

using option_tests::parse;

// Every option --help lists with the value type `type` (e.g. FLOAT), by its longest name.
std::set<std::string> options_of_type(const std::string& type) {
  const std::string help = parse({"--help"}).message;
  std::set<std::string> names;
  const std::regex line("(--[a-z0-9_-]+) " + type + "\\b");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), line); it != std::sregex_iterator(); ++it)
    names.insert((*it)[1]);
  return names;
}

// The value is refused with exit code 2 and one line that names the option.
void expect_rejected(const std::string& option, const std::string& value) {
  option_tests::expect_usage_error({option, value}, option);
}

}  // namespace

TEST(CliFloat, ParsesFiniteNumbersOnly) {
  EXPECT_EQ(parse_finite("0.5"), 0.5);
  EXPECT_EQ(parse_finite("2"), 2.0);
  EXPECT_EQ(parse_finite("-3e2"), -300.0);
  EXPECT_EQ(parse_finite("1e-3"), 0.001);
  for (const char* bad : {"", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e400", "-1e400", "2x", "0.5s", " 1",
                          "1 ", "1,5", "--1", "0x", "1e", "."})
    EXPECT_FALSE(parse_finite(bad).has_value()) << bad;
}

TEST(CliFloat, SaysWhyAValueIsRefused) {
  EXPECT_EQ(float_value_problem("0.5", 0, 1), "");
  EXPECT_EQ(float_value_problem("1", 0, 1), "");
  EXPECT_NE(float_value_problem("nan", 0, 1).find("not a finite number"), std::string::npos);
  EXPECT_NE(float_value_problem("1.5", 0, 1).find("outside [0, 1]"), std::string::npos);
  EXPECT_NE(float_value_problem("-0.1", 0, 1).find("outside"), std::string::npos);
}

TEST(CliFloat, FormatsShortestRoundTrip) {
  EXPECT_EQ(format_float(0.1), "0.1");
  EXPECT_EQ(format_float(120), "120");
  EXPECT_EQ(format_float(1.000001), "1.000001");
  EXPECT_EQ(format_float(1e6), "1000000");
  EXPECT_EQ(format_float(3600), "3600");
  EXPECT_EQ(format_float(1e-3), "0.001");
}

TEST(CliFloat, OptionTakesValueAndShowsDefault) {
  CLI::App app;
  double x = 0.25;
  add_float_option(app, "--x", x, 0.0, 1.0, "a fraction");
  EXPECT_NE(app.help().find("0.25"), std::string::npos);
  app.parse(std::vector<std::string>{"0.75", "--x"});  // CLI11 takes the arguments reversed
  EXPECT_EQ(x, 0.75);
  EXPECT_THROW(app.parse(std::vector<std::string>{"nan", "--x"}), CLI::ValidationError);
}

// The class, not the cases: every float option that --help lists refuses every non-finite value.
TEST(CliFloat, EveryFloatOptionRefusesNonFiniteValues) {
  const auto floats = options_of_type("FLOAT");
  for (const char* expected : {"--stepfactor", "--budget", "--timeout", "--node-min-time", "--counters-interval",
                               "--tcp-time", "--tcp-interval", "--tcp-lat-time", "--tcp-timeout", "--tcp-suspect",
                               "--tcp-dip", "--duration"})
    EXPECT_TRUE(floats.count(expected)) << expected << " is not listed as FLOAT";
  for (const auto& option : floats)
    for (const char* v : {"nan", "-nan", "inf", "-inf", "1e400", "-1e400", "1e999", "0x", "1.5s", "", "1e308"})
      expect_rejected(option, v);
}

TEST(CliFloat, EveryIntegerOptionRefusesOverflowAndGarbage) {
  const auto ints = options_of_type("INT");
  EXPECT_TRUE(ints.count("--iters"));
  for (const auto& option : ints)
    for (const char* v : {"nan", "inf", "1e400", "99999999999999999999", "-99999999999999999999", "2.5", "7x", ""})
      expect_rejected(option, v);
}

TEST(CliFloat, EverySizeOptionRefusesNonFiniteNegativeAndHuge) {
  const auto sizes = options_of_type("SIZE");
  EXPECT_TRUE(sizes.count("--maxbytes"));
  EXPECT_TRUE(sizes.count("--scaling-size"));
  for (const auto& option : sizes)
    for (const char* v : {"nan", "inf", "1e400", "-1", "0", "99999999999T", "8Q", ""}) expect_rejected(option, v);
}

TEST(CliFloat, LinkRateRefusesInfinityAndOverflow) {
  for (const char* v : {"inf", "1e400", "nan", "1e300G", "-10G"}) expect_rejected("--link-rate", v);
  const auto ok = parse({"--link-rate", "25G"});
  ASSERT_TRUE(ok.config) << ok.message;
  EXPECT_EQ(ok.config->tcp.link_rate_bps, 25e9);
}
