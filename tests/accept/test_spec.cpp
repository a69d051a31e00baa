// Spec parsing: the example in ci/ and one case per kind of bad input, each checked for the field path
// and the problem in the message.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "gpunet/build_config.h"
#include "tests/support/spec_names.hpp"
#include "report/judge/spec.hpp"
#include "report/render/outputs.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

std::string spec_error_of(const std::string& text) {
  try {
    parse_spec(json::parse(text), "spec.json", gpunet::test_support::suite_spec_names());
  } catch (const SpecError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string with(const std::string& body) { return R"({"spec_version": 1, )" + body + "}"; }

}  // namespace

TEST(Spec, ExampleInCiParses) {
  const auto s = load_spec(std::string(GPUNET_SOURCE_DIR) + "/ci/spec-example.json", gpunet::test_support::suite_spec_names());
  ASSERT_TRUE(s.nic);
  EXPECT_EQ(s.nic->count, 8);
  EXPECT_DOUBLE_EQ(*s.nic->speed_Gbps, 400);
  EXPECT_EQ(s.nic->match, "^mlx5_");
  ASSERT_TRUE(s.pcie_gpu && s.pcie_nic);
  EXPECT_EQ(s.pcie_gpu->gen, 5);
  EXPECT_EQ(s.pcie_nic->width, 16);
  EXPECT_EQ(s.worst_path, PathClass::PXB);
  ASSERT_EQ(s.bandwidth.size(), 3u);
  EXPECT_EQ(s.bandwidth[0].sel.bytes, int64_t{8589934592});
  EXPECT_EQ(s.bandwidth[0].sel.figure, "busbw_GBps");
  EXPECT_DOUBLE_EQ(*s.bandwidth[0].min, 360);
  EXPECT_FALSE(s.bandwidth[1].sel.bytes);
  EXPECT_DOUBLE_EQ(*s.bandwidth[1].min_efficiency_pct, 80);
  EXPECT_EQ(s.bandwidth[2].sel.figure, "extra.goodput_Gbps");
  ASSERT_EQ(s.latency.size(), 2u);
  EXPECT_EQ(s.latency[1].sel.suite, "rdma");
  EXPECT_EQ(s.latency[1].sel.figure, "time_us.p99");
  EXPECT_DOUBLE_EQ(s.latency[1].max_us, 5);
  ASSERT_EQ(s.stability.size(), 1u);
  EXPECT_DOUBLE_EQ(s.stability[0].max_dip_pct, 20);
  ASSERT_TRUE(s.homogeneity);
  EXPECT_TRUE(s.homogeneity->topology);
  ASSERT_EQ(s.homogeneity->figures.size(), 1u);
  EXPECT_EQ(s.homogeneity->figures[0].sel.figure, "algbw_GBps");
}

TEST(Spec, MinimalSpecIsEmpty) {
  const auto s = parse_spec(json::parse(R"({"spec_version": 1})"), "x", gpunet::test_support::suite_spec_names());
  EXPECT_FALSE(s.nic || s.pcie_gpu || s.pcie_nic || s.worst_path || s.homogeneity);
  EXPECT_TRUE(s.bandwidth.empty() && s.latency.empty() && s.stability.empty());
}

TEST(Spec, WrongTypeNamesFieldAndValue) {
  EXPECT_EQ(spec_error_of(with(R"("nic": {"speed_Gbps": "fast"})")),
            R"(spec.json: nic.speed_Gbps: expected a number, got "fast")");
  EXPECT_EQ(spec_error_of(with(R"("nic": {"count": 2.5})")), "spec.json: nic.count: expected an integer, got 2.5");
  EXPECT_EQ(spec_error_of(with(R"("homogeneity": {"topology": "yes"})")),
            R"(spec.json: homogeneity.topology: expected true or false, got "yes")");
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": {"suite": "nccl"})")), "spec.json: bandwidth: expected an array, got an object");
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "nccl", "name": "allreduce", "min": 1},
                                          {"suite": "nccl", "name": "allreduce", "min": [1]}])")),
            "spec.json: bandwidth[1].min: expected a number, got an array");
  EXPECT_EQ(spec_error_of("[1, 2]"), "spec.json: expected an object, got an array");
}

TEST(Spec, UnknownKeysAreErrors) {
  EXPECT_EQ(spec_error_of(with(R"("nics": {})")).rfind("spec.json: nics: unknown key (known here: spec_version, name,", 0), 0u);
  EXPECT_EQ(spec_error_of(with(R"("nic": {"sped_Gbps": 100})")),
            "spec.json: nic.sped_Gbps: unknown key (known here: count, speed_Gbps, match)");
  EXPECT_EQ(spec_error_of(with(R"("latency": [{"suite": "tcp", "name": "latency", "max_p95_us": 3}])")).rfind(
                "spec.json: latency[0].max_p95_us: unknown key", 0),
            0u);
}

TEST(Spec, OutOfRangeValues) {
  EXPECT_EQ(spec_error_of(with(R"("nic": {"speed_Gbps": -5})")),
            "spec.json: nic.speed_Gbps: -5 is out of range (expected > 0 and <= 100000)");
  EXPECT_EQ(spec_error_of(with(R"("nic": {"count": 0})")), "spec.json: nic.count: 0 is out of range (expected 1 to 1024)");
  EXPECT_EQ(spec_error_of(with(R"("pcie": {"gpu": {"gen": 9}})")),
            "spec.json: pcie.gpu.gen: 9 is out of range (expected 1 to 7)");
  EXPECT_EQ(spec_error_of(with(R"("pcie": {"nic": {"width": 12}})")),
            "spec.json: pcie.nic.width: 12 is not a PCIe width (1, 2, 4, 8, 16 or 32)");
  EXPECT_EQ(spec_error_of(with(R"("locality": {"worst_path": "FAR"})")),
            R"(spec.json: locality.worst_path: "FAR" is not a path class (X, PIX, PXB, PHB, NODE, SYS))");
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "tcp", "name": "bandwidth", "min_efficiency_pct": 150}])")),
            "spec.json: bandwidth[0].min_efficiency_pct: 150 is out of range (expected > 0 and <= 100)");
  EXPECT_EQ(spec_error_of(with(R"("stability": [{"suite": "tcp", "name": "bandwidth", "max_dip_pct": -1}])")),
            "spec.json: stability[0].max_dip_pct: -1 is out of range (expected >= 0 and <= 100)");
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "nccl", "name": "allreduce", "bytes": -1, "min": 1}])")),
            "spec.json: bandwidth[0].bytes: -1 is out of range (expected 0 to 9223372036854775807)");
}

TEST(Spec, MissingAndContradictoryFields) {
  EXPECT_EQ(spec_error_of("{}"), "spec.json: spec_version: missing (required; this program reads spec_version 1 and 2)");
  EXPECT_EQ(spec_error_of(R"({"spec_version": 3})"),
            "spec.json: spec_version: 3 is not supported (this program reads spec_version 1 and 2)");
  EXPECT_EQ(spec_error_of(with(R"("latency": [{"name": "latency", "max_p99_us": 3}])")),
            "spec.json: latency[0].suite: missing (required)");
  EXPECT_EQ(spec_error_of(with(R"("latency": [{"suite": "tcp", "name": "latency"}])")),
            "spec.json: latency[0].max_p99_us: missing (required)");
  EXPECT_EQ(spec_error_of(with(R"("latency": [{"suite": "tcp", "name": "latency", "max_p99_us": 3, "max_p99_rtt_us": 6}])")),
            "spec.json: latency[0]: give one of max_p99_us (half the round trip) and max_p99_rtt_us (the round trip), not both");
  EXPECT_EQ(spec_error_of(with(R"("latency": [{"suite": "node", "name": "BM_copy", "max_p99_rtt_us": 3}])")),
            "spec.json: latency[0].max_p99_rtt_us: only a latency test's times (time_us) have a round trip; use max_p99_us");
  EXPECT_EQ(spec_error_of(with(R"("latency": [{"suite": "tcp", "name": "latency", "max_p99_rtt_us": 6}])")), "(no error)");
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "nccl", "name": "allreduce", "min": 1, "min_efficiency_pct": 80}])")),
            "spec.json: bandwidth[0]: give exactly one of min and min_efficiency_pct");
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "nccl", "name": "allreduce"}])")),
            "spec.json: bandwidth[0]: give exactly one of min and min_efficiency_pct");
  EXPECT_EQ(spec_error_of(with(R"("nic": {})")), "spec.json: nic: states nothing (give count, speed_Gbps or both)");
  EXPECT_EQ(spec_error_of(with(R"("homogeneity": {"figures": []})")),
            "spec.json: homogeneity: states nothing (give topology: true or figures)");
}

TEST(Spec, BadNamesFiguresAndPatterns) {
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "nccl", "name": "allreduce", "figure": "busbw", "min": 1}])")),
            "spec.json: bandwidth[0].figure: 'busbw' is not a figure of nccl/allreduce (its metrics: nccl.allreduce.busbw; "
            "or a record path: busbw_GBps, algbw_GBps, time_us.STAT or extra.KEY)");
  EXPECT_EQ(spec_error_of(with(R"("latency": [{"suite": "tcp", "name": "latency", "figure": "time_us.p95", "max_p99_us": 1}])")),
            "spec.json: latency[0].figure: 'time_us.p95' is not a figure of tcp/latency (its metrics: tcp.latency; "
            "or a record path: busbw_GBps, algbw_GBps, time_us.STAT or extra.KEY)");
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "topo", "name": "node", "figure": "topo.gpus", "min": 1}])")),
            "spec.json: bandwidth[0].figure: 'topo.gpus' is not a figure (topo/node names no metric; use a record path: "
            "busbw_GBps, algbw_GBps, time_us.STAT or extra.KEY)");
  // Another suite's metric is not this test's.
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "mpi", "name": "allreduce", "figure": "nccl.allreduce.busbw", "min": 1}])")),
            "spec.json: bandwidth[0].figure: 'nccl.allreduce.busbw' is not a figure of mpi/allreduce (its metrics: "
            "mpi.allreduce.busbw; or a record path: busbw_GBps, algbw_GBps, time_us.STAT or extra.KEY)");
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "", "name": "allreduce", "min": 1}])")),
            "spec.json: bandwidth[0].suite: must not be empty");
  EXPECT_EQ(spec_error_of(with(R"("nic": {"count": 1, "match": "mlx5_("})")),
            "spec.json: nic.match: 'mlx5_(' is not a valid regular expression");
}

TEST(Spec, NamesNoSuiteProducesAreErrorsWithTheValidChoices) {
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "tcp", "name": "bandwith", "min": 1}])")),
            "spec.json: bandwidth[0].name: 'bandwith' is not a test of suite tcp (valid: bandwidth, aggregate, latency, "
            "matrix, neighbours, one-to-many, many-to-one, retest)");
  EXPECT_EQ(spec_error_of(with(R"("latency": [{"suite": "tpc", "name": "latency", "max_p99_us": 1}])")),
            "spec.json: latency[0].suite: 'tpc' is not a suite (valid: topo, mpi, tcp, rdma, nccl, pcie, node, train)");
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "tcp", "name": "bandwidth", "variant": "matrx", "min": 1}])")),
            "spec.json: bandwidth[0].variant: 'matrx' is not a kind of tcp/bandwidth (valid: neighbours, matrix, "
            "one-to-many, many-to-one, retest)");
  // A test kind stands for the test; a suite that names its records at run time takes any name.
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "tcp", "name": "matrix", "min": 1}])")), "(no error)");
  EXPECT_EQ(spec_error_of(with(R"("latency": [{"suite": "node", "name": "BM_copy", "max_p99_us": 1}])")), "(no error)");
}

// A figure named by its metric reads the same record path as the path it stands for.
TEST(Spec, FiguresByMetricReadTheirRecordPaths) {
  const auto s = parse_spec(json::parse(R"({"spec_version": 2,
      "bandwidth": [{"suite": "tcp", "name": "bandwidth", "test": "matrix", "figure": "tcp.goodput", "min": 1},
                    {"suite": "nccl", "name": "allreduce", "figure": "nccl.allreduce.busbw", "min": 1},
                    {"suite": "mpi", "name": "scaling", "figure": "mpi.allreduce.busbw", "min": 1},
                    {"suite": "rdma", "name": "write_bw", "figure": "rdma.write.bw", "min": 1},
                    {"suite": "pcie", "name": "h2d", "figure": "pcie.h2d", "min": 1},
                    {"suite": "node", "name": "membw_triad", "figure": "node.membw.triad", "min": 1}],
      "latency": [{"suite": "tcp", "name": "latency", "figure": "tcp.latency", "max_p99_us": 50},
                  {"suite": "rdma", "name": "write_lat", "figure": "rdma.write.latency", "max_p99_us": 5}]})"),
                            "s.json", gpunet::test_support::suite_spec_names());
  std::vector<std::string> paths;
  for (const auto& b : s.bandwidth) paths.push_back(b.sel.figure);
  EXPECT_EQ(paths, (std::vector<std::string>{"extra.goodput_Gbps", "busbw_GBps", "busbw_GBps", "extra.bw_Gbps",
                                             "algbw_GBps", "algbw_GBps"}));
  EXPECT_EQ(s.latency.at(0).sel.figure, "time_us.p50");
  EXPECT_EQ(s.latency.at(1).sel.figure, "time_us.p50");
}

// What each suite states of its metrics is what its records carry: every figure of a spec test in the
// recorded runs is found by its metric, at the path the judges read it (figure_path).
TEST(Spec, EveryRecordedFigureIsFoundByItsMetric) {
  const auto& known = gpunet::test_support::suite_spec_names();
  int checked = 0;
  for (const char* file : {"fixture.json", "default_np2.json", "rdma_matrix.json"}) {
    const auto loaded = load_results(std::string(GPUNET_SOURCE_DIR) + "/tests/data/report/" + file);
    ASSERT_TRUE(loaded.report) << loaded.error;
    for (const auto& r : loaded.report->results) {
      if (!r.figure || unknown_name(known, r.suite, r.name, "")) continue;
      const auto named = metric_path(known, r.suite, r.name, r.figure->metric);
      EXPECT_EQ(named.problem, "") << file << ": " << r.suite << "/" << r.name;
      EXPECT_EQ(named.path, figure_path(*r.figure)) << file << ": " << r.suite << "/" << r.name << " " << r.figure->metric;
      ++checked;
    }
  }
  EXPECT_GT(checked, 50);
}

TEST(Spec, VersionTwoAddsTestAndLinkRate) {
  const auto s = parse_spec(json::parse(R"({"spec_version": 2, "link": {"rate_Gbps": 1},
      "bandwidth": [{"suite": "tcp", "name": "bandwidth", "test": "matrix", "min_efficiency_pct": 90}]})"), "s.json", gpunet::test_support::suite_spec_names());
  EXPECT_EQ(s.version, 2);
  EXPECT_EQ(s.bandwidth.at(0).sel.variant, "matrix");
  EXPECT_EQ(s.bandwidth.at(0).sel.figure, "extra.goodput_Gbps");  // TCP's bandwidth figure by default
  EXPECT_EQ(promised_rate_Gbps(s), 1.0);
  EXPECT_EQ(spec_error_of(with(R"("link": {"rate_Gbps": 1})")), "spec.json: link: needs spec_version 2");
  EXPECT_EQ(spec_error_of(with(R"("bandwidth": [{"suite": "tcp", "name": "bandwidth", "test": "matrix", "min": 1}])")),
            "spec.json: bandwidth[0].test: needs spec_version 2 (in version 1 name the test kind in `name` or `variant`)");
  EXPECT_EQ(spec_error_of(R"({"spec_version": 2, "bandwidth": [{"suite": "tcp", "name": "bandwidth", "test": "pairs", "min": 1}]})"),
            "spec.json: bandwidth[0].test: 'pairs' is not a kind of tcp/bandwidth (valid: neighbours, matrix, one-to-many, "
            "many-to-one, retest)");
}

TEST(Spec, FileErrors) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpunet_spec_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto bad = (dir / "bad.json").string();
  std::ofstream(bad) << "{\"spec_version\": 1,";
  try {
    load_spec(bad, gpunet::test_support::suite_spec_names());
    FAIL() << "no error";
  } catch (const SpecError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(bad + ": not valid JSON: parse error", 0), 0u) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  try {
    load_spec((dir / "missing.json").string(), gpunet::test_support::suite_spec_names());
    FAIL() << "no error";
  } catch (const SpecError& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "missing.json").string() + ": no such file (check the path)");
  }
  std::filesystem::remove_all(dir);
}
