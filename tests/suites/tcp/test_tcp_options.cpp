#include <gtest/gtest.h>

#include "bench/suites/tcp/options.hpp"
#include "tests/support/parse_options.hpp"

using namespace gpunet::bench;

namespace {
using option_tests::parse;
}  // namespace

TEST(TcpOptions, ParseRate) {
  EXPECT_DOUBLE_EQ(*tcp::parse_rate("10G"), 10e9);
  EXPECT_DOUBLE_EQ(*tcp::parse_rate("25Gbit"), 25e9);
  EXPECT_DOUBLE_EQ(*tcp::parse_rate("2.5Gb/s"), 2.5e9);
  EXPECT_DOUBLE_EQ(*tcp::parse_rate("100m"), 100e6);
  EXPECT_DOUBLE_EQ(*tcp::parse_rate("1000000000"), 1e9);
  for (const char* bad : {"", "fast", "10X", "-1G", "0", "10GB"}) EXPECT_FALSE(tcp::parse_rate(bad)) << bad;
}

TEST(TcpOptions, Defaults) {
  const auto r = parse({});
  ASSERT_TRUE(r.config);
  const auto& t = r.config->tcp;
  EXPECT_EQ(t.tests, (std::vector<std::string>{"neighbours", "matrix", "one-to-many", "many-to-one", "latency"}));
  EXPECT_EQ(t.streams, 1);
  EXPECT_EQ(t.msg_bytes, 128 << 10);
  EXPECT_EQ(t.duration_s, 0);
  EXPECT_EQ(t.link_rate_bps, 0);
}

TEST(TcpOptions, Values) {
  const auto r = parse({"--suites", "tcp", "--tcp-if", "10.0.0.0/8", "--tcp-tests", "matrix,latency", "--tcp-streams", "4",
                        "--tcp-msg", "64K", "--tcp-rcvbuf", "4M", "--link-rate", "25G", "--tcp-bidir", "--tcp-suspect", "0.5"});
  ASSERT_TRUE(r.config) << r.message;
  const auto& t = r.config->tcp;
  EXPECT_EQ(t.iface, "10.0.0.0/8");
  EXPECT_EQ(t.tests, (std::vector<std::string>{"matrix", "latency"}));
  EXPECT_EQ(t.streams, 4);
  EXPECT_EQ(t.msg_bytes, 64 << 10);
  EXPECT_EQ(t.rcvbuf, 4 << 20);
  EXPECT_DOUBLE_EQ(t.link_rate_bps, 25e9);
  EXPECT_TRUE(t.bidir);
  EXPECT_DOUBLE_EQ(t.suspect, 0.5);
}

TEST(TcpOptions, StabilityMode) {
  auto r = parse({"--suites", "tcp", "--duration", "300"});
  ASSERT_TRUE(r.config) << r.message;
  EXPECT_EQ(r.config->tcp.tests, (std::vector<std::string>{"neighbours"}));
  EXPECT_DOUBLE_EQ(r.config->tcp.time_s, 300);
  EXPECT_GE(r.config->timeout_s, 300 + 2 * 5.0);  // the watchdog step fits
  r = parse({"--suites", "tcp", "--duration", "300", "--timeout", "100"});
  EXPECT_FALSE(r.config);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.message.find("raise --timeout"), std::string::npos) << r.message;
  r = parse({"--suites", "tcp", "--duration", "10", "--tcp-tests", "matrix"});
  ASSERT_TRUE(r.config);
  EXPECT_EQ(r.config->tcp.tests, (std::vector<std::string>{"matrix"}));
}

TEST(TcpOptions, BadValuesAreOneLineUsageErrors) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--tcp-tests", "matrix,bogus"}, {"--tcp-tests", ","}, {"--link-rate", "fast"}, {"--tcp-streams", "0"},
           {"--tcp-msg", "lots"}, {"--tcp-suspect", "2"}, {"--duration", "5", "--tcp-bytes", "1M"}}) {
    const auto r = parse(args);
    EXPECT_FALSE(r.config) << args[0];
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_EQ(r.message.find('\n'), std::string::npos) << r.message;
    EXPECT_EQ(r.message.rfind("gpunet-bench: error: ", 0), 0u) << r.message;
  }
}
