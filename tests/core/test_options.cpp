#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

#include "bench/core/options.hpp"
#include "tests/support/parse_options.hpp"
#include "bench/suites/suite_list.hpp"

using namespace gpunet::bench;

namespace {
using option_tests::expect_usage_error;
using option_tests::parse;
}  // namespace

TEST(Options, Defaults) {
  const auto r = parse({});
  ASSERT_TRUE(r.config);
  const Config& c = *r.config;
  EXPECT_EQ(c.min_bytes, 1024);
  EXPECT_EQ(c.max_bytes, 64LL << 20);
  EXPECT_EQ(c.check, 1);
  EXPECT_EQ(c.reduction, Reduction::max);
  EXPECT_EQ(c.suites, (std::vector<std::string>{"topo", "mpi", "tcp", "rdma", "nccl", "pcie", "node"}));
  EXPECT_EQ(c.output_dir, "gpunet-report");
}

TEST(Options, NcclTestsFlags) {
  const auto r = parse({"-b", "8", "-e", "128M", "-f", "2", "-n", "50", "-w", "5", "-c", "0"});
  ASSERT_TRUE(r.config) << r.message;
  EXPECT_EQ(r.config->min_bytes, 8);
  EXPECT_EQ(r.config->max_bytes, 128LL << 20);
  EXPECT_DOUBLE_EQ(r.config->step_factor, 2);
  EXPECT_EQ(r.config->iters, 50);
  EXPECT_EQ(r.config->warmup_iters, 5);
  EXPECT_EQ(r.config->check, 0);
}

TEST(Options, LongFormsAndLists) {
  const auto r = parse({"--minbytes=1K", "--maxbytes", "1G", "--suites", "mpi", "--collectives", "allreduce,alltoall",
                        "--timeout", "7.5", "--reduce", "mean", "-o", "/tmp/x", "--budget", "0.5"});
  ASSERT_TRUE(r.config) << r.message;
  EXPECT_EQ(r.config->min_bytes, 1024);
  EXPECT_EQ(r.config->max_bytes, 1LL << 30);
  EXPECT_EQ(r.config->suites, std::vector<std::string>{"mpi"});
  EXPECT_EQ(r.config->collectives, (std::vector<std::string>{"allreduce", "alltoall"}));
  EXPECT_DOUBLE_EQ(r.config->timeout_s, 7.5);
  EXPECT_EQ(r.config->reduction, Reduction::mean);
  EXPECT_EQ(r.config->output_dir, "/tmp/x");
  EXPECT_DOUBLE_EQ(r.config->budget_s, 0.5);
}

TEST(Options, HelpAndVersionExitZero) {
  const auto h = parse({"--help"});
  EXPECT_FALSE(h.config);
  EXPECT_EQ(h.exit_code, 0);
  for (const char* opt : {"--minbytes", "--maxbytes", "--stepfactor", "--iters", "--warmup_iters", "--check", "--verify",
                          "--suites", "--output", "--timeout", "--budget", "--reduce", "Exit codes"})
    EXPECT_NE(h.message.find(opt), std::string::npos) << opt;
  const auto v = parse({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.message.find("gpunet-bench "), std::string::npos);
}

TEST(Options, TheSuiteListDrivesSuitesAndHelp) {
  const auto h = parse({"--help"});
  for (const auto& s : suite_list()) {
    EXPECT_NE(h.message.find(s.name + ": " + s.help.substr(0, 40)), std::string::npos) << s.name;
    EXPECT_TRUE(s.run) << s.name;
  }
  EXPECT_EQ(suite_names(suite_list()), "topo,mpi,tcp,rdma,nccl,pcie,node");
  EXPECT_EQ(suite_names(suite_list(), false), "train");
  // Each suite's options and checks are its own, and they still reach the parser.
  EXPECT_EQ(parse({"--nccl-collectives", "allreduce,warp"}).exit_code, 2);
  EXPECT_EQ(parse({"-G", "-1"}).exit_code, 2);
  EXPECT_EQ(parse({"--cudagraph", "2x"}).exit_code, 2);
  EXPECT_EQ(parse({"--collectives", "reduce"}).exit_code, 2);
  EXPECT_EQ(parse({"--rdma-size", "2G"}).exit_code, 2);
  const auto ok = parse({"--suites", "tcp,node", "--tcp-tests", "matrix", "--node-repetitions", "5", "--rdma-mode", "matrix"});
  ASSERT_TRUE(ok.config) << ok.message;
  EXPECT_EQ(ok.config->tcp.tests, std::vector<std::string>{"matrix"});
  EXPECT_EQ(ok.config->node_repetitions, 5);
  EXPECT_EQ(ok.config->cuda_graph_launches, 0);
  const auto graphs = parse({"--suites", "nccl", "-G", "4"});
  ASSERT_TRUE(graphs.config) << graphs.message;
  EXPECT_EQ(graphs.config->cuda_graph_launches, 4);
  EXPECT_EQ(ok.config->rdma_mode, "matrix");
}

TEST(Options, ASpecThatPromisesTcpLatencyAsksForEveryPair) {
  const std::string dir = ::testing::TempDir();
  const std::string with = dir + "/latency-spec.json", without = dir + "/bandwidth-spec.json";
  std::ofstream(with) << R"({"spec_version": 1, "latency": [{"suite": "tcp", "name": "latency", "max_p99_us": 500}]})";
  std::ofstream(without) << R"({"spec_version": 1, "bandwidth": [{"suite": "tcp", "name": "bandwidth", "min": 0.5}]})";
  const auto a = parse({"--suites", "tcp", "--spec", with});
  const auto b = parse({"--suites", "tcp", "--spec", without});
  const auto none = parse({"--suites", "tcp"});
  std::filesystem::remove(with);
  std::filesystem::remove(without);
  ASSERT_TRUE(a.config && b.config && none.config) << a.message << b.message << none.message;
  EXPECT_TRUE(a.config->tcp.latency_every_pair);
  EXPECT_FALSE(b.config->tcp.latency_every_pair);
  EXPECT_FALSE(none.config->tcp.latency_every_pair);
}

// The core knows no suite of its own: --suites, --help and the suites' options come from the list it
// is handed (bench/main.cpp hands it bench/suites/suite_list).
TEST(Options, TheParserTakesTheSuitesItIsHanded) {
  Suite alpha;
  alpha.name = "alpha";
  alpha.help = "the first";
  Suite beta;
  beta.name = "beta";
  beta.help = "the second, on request";
  beta.by_default = false;
  beta.add_options = [](CLI::App& app, Config&, OptionText& text) { app.add_option("--beta-level", text.at("--beta-level")); };
  beta.finish_options = [](Config&, const OptionText& text, const CLI::App&) {
    return text.get("--beta-level") == "high" ? std::string("--beta-level: 'high' is too high (give low)") : std::string();
  };
  const std::vector<Suite> list{alpha, beta};
  const auto plain = parse_options({"gpunet-bench"}, list);
  ASSERT_TRUE(plain.config) << plain.message;
  EXPECT_EQ(plain.config->suites, std::vector<std::string>{"alpha"});
  const auto help = parse_options({"gpunet-bench", "--help"}, list);
  EXPECT_NE(help.message.find("alpha: the first"), std::string::npos) << help.message;
  EXPECT_NE(help.message.find("--beta-level"), std::string::npos) << help.message;
  EXPECT_EQ(help.message.find("--tcp-time"), std::string::npos) << "a suite not handed in adds no options";
  const auto unknown = parse_options({"gpunet-bench", "--suites", "tcp"}, list);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.message.find("unknown suite 'tcp' (known: alpha; beta on request)"), std::string::npos) << unknown.message;
  const auto chosen = parse_options({"gpunet-bench", "--suites", "beta", "--beta-level", "low"}, list);
  ASSERT_TRUE(chosen.config) << chosen.message;
  EXPECT_EQ(chosen.config->suites, std::vector<std::string>{"beta"});
  const auto refused = parse_options({"gpunet-bench", "--beta-level", "high"}, list);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.message.find("--beta-level: 'high' is too high"), std::string::npos) << refused.message;
}

TEST(Options, ReportSubcommand) {
  const auto r = parse({"report", "out/report.json", "-o", "rerendered"});
  ASSERT_TRUE(r.config) << r.message;
  EXPECT_EQ(r.config->report_input, "out/report.json");
  EXPECT_EQ(r.config->output_dir, "rerendered");
  const auto in_place = parse({"report", "runs/monday/results.jsonl"});
  ASSERT_TRUE(in_place.config) << in_place.message;
  // Beside the input, never over the run's own files.
  EXPECT_EQ(in_place.config->output_dir, "runs/monday/rerendered");
  EXPECT_EQ(parse({"report", "report.json"}).config->output_dir, "./rerendered");
}

TEST(Options, BadInputIsOneLineExit2) {
  expect_usage_error({"--frobnicate"}, "--frobnicate");
  expect_usage_error({"-b", "12Q"}, "12Q");
  expect_usage_error({"-b", "-5"}, "-b");
  expect_usage_error({"-e", "0"}, "0");
  expect_usage_error({"-b", "1M", "-e", "1K"}, "smaller than");
  expect_usage_error({"-f", "1"}, "stepfactor");
  expect_usage_error({"-f", "two"}, "two");
  expect_usage_error({"-n", "0"}, "iters");
  expect_usage_error({"-n", "ten"}, "ten");
  expect_usage_error({"-w", "-1"}, "warmup");
  expect_usage_error({"-c", "2"}, "verify");
  expect_usage_error({"--suites", "mpi,warp"}, "warp");
  expect_usage_error({"--suites", ","}, "--suites");
  expect_usage_error({"--collectives", "allreduc"}, "allreduc");
  expect_usage_error({"--timeout", "0"}, "timeout");
  expect_usage_error({"--timeout", "soon"}, "soon");
  expect_usage_error({"--reduce", "median"}, "median");
  expect_usage_error({"-d", "float16x"}, "float16x");
  expect_usage_error({"-o", ""}, "--output");
  expect_usage_error({"-b"}, "-b");
  expect_usage_error({"report"}, "path");
  expect_usage_error({"stray"}, "stray");
}

TEST(Options, ReportPathEdgeCases) {
  expect_usage_error({"report", ""}, "empty path");
  const auto root = parse({"report", "/x.json"});
  ASSERT_TRUE(root.config) << root.message;
  EXPECT_EQ(root.config->output_dir, "/rerendered");
}

TEST(Options, CheckTakesNoValueAndVerifyKeepsMinusC) {
  const auto check = parse({"--check", "-b", "4K"});
  ASSERT_TRUE(check.config) << check.message;
  EXPECT_TRUE(check.config->check_inputs);
  EXPECT_FALSE(parse({}).config->check_inputs);
  expect_usage_error({"--check", "1"}, "-c/--verify");
  expect_usage_error({"--check=0"}, "-c/--verify");
  const auto verify = parse({"--verify", "0"});
  ASSERT_TRUE(verify.config) << verify.message;
  EXPECT_EQ(verify.config->check, 0);
}
