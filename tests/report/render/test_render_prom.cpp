// metrics.prom: names and units, escaping, one series per figure, the cardinality bound, and the
// file as promtool reads it (`promtool check metrics`, Debian package prometheus; the test fails when
// promtool is missing or reports a problem).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "report/render/prom_text.hpp"
#include "report/render/renderers.hpp"

using namespace gpunet::report;

namespace {

Record goodput(const std::string& src, const std::string& dst, double gbps, double ceiling) {
  Record r;
  r.suite = "tcp";
  r.name = "bandwidth";
  r.host = dst;
  r.figure = rate_figure("tcp.goodput", gbps, "Gb/s", pair_subject(src, 0, dst, 1), PathModel::tcp_flow);
  r.figure->parameters = {{"test", "matrix"}, {"streams", "1"}};
  FigureCeiling c;
  c.known = true;
  c.value = ceiling;
  c.unit = "Gb/s";
  r.figure->ceiling = std::make_shared<const FigureCeiling>(c);
  r.figure->efficiency = gbps / ceiling;
  return r;
}

// A matrix of every directed pair of `nodes` hosts.
Report matrix_report(int nodes) {
  Report rep;
  for (int i = 0; i < nodes; ++i) rep.provenance.hosts.push_back("node" + std::to_string(i));
  for (int i = 0; i < nodes; ++i)
    for (int j = 0; j < nodes; ++j)
      if (i != j) rep.results.push_back(goodput("node" + std::to_string(i), "node" + std::to_string(j), (j + 1) / 8.0, 4.0));
  return rep;
}

std::vector<std::string> series_of(const std::string& text, const std::string& name) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name + "{", 0) == 0 || line.rfind(name + " ", 0) == 0) out.push_back(line);
  return out;
}

// promtool's exit code and what it said about `text`.
std::pair<int, std::string> promtool_check(const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("gpunet-prom-" + std::to_string(::getpid()) + ".prom");
  std::ofstream(path) << text;
  const std::string cmd = "promtool check metrics < " + path.string() + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  std::string said;
  char buf[512];
  while (p && std::fgets(buf, sizeof buf, p)) said += buf;
  const int status = p ? ::pclose(p) : -1;
  std::filesystem::remove(path);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, said};
}

}  // namespace

TEST(PromText, NamesCarryTheUnit) {
  EXPECT_EQ(prom::metric_name("tcp.goodput", "Gb/s"), "gpunet_tcp_goodput_gbps");
  EXPECT_EQ(prom::ceiling_name("tcp.goodput", "Gb/s"), "gpunet_tcp_goodput_ceiling_gbps");
  EXPECT_EQ(prom::efficiency_name("tcp.goodput"), "gpunet_tcp_goodput_efficiency_ratio");
  EXPECT_EQ(prom::metric_name("nccl.all-reduce.busbw", "GB/s"), "gpunet_nccl_all_reduce_busbw_bytes_per_second");
  EXPECT_EQ(prom::metric_name("tcp.latency", "us"), "gpunet_tcp_latency_seconds");
  EXPECT_EQ(prom::unit_of("us").apply(12.5), 1.25e-5);
  EXPECT_EQ(prom::unit_of("GB/s").apply(12.5), 1.25e10);
  EXPECT_EQ(prom::unit_of("Gb/s").apply(0.957), 0.957);
  EXPECT_EQ(prom::name_part("9lives..X"), "_9lives_x");
  EXPECT_EQ(prom::name_part("%%"), "_");
}

TEST(PromText, LabelValuesAndHelpAreEscaped) {
  EXPECT_EQ(prom::label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(prom::label_value(std::string("x\x01y\xff", 4)), "x?y?");
  EXPECT_EQ(prom::label_value("h\xc3\xa9te"), "h\xc3\xa9te");  // UTF-8 is kept
  EXPECT_EQ(prom::help_text("a\\b\nc\td"), "a\\\\b\\nc d");
  EXPECT_EQ(prom::label_set({{"src", "a\"b"}, {"dst", "c"}}), "{src=\"a\\\"b\",dst=\"c\"}");
  EXPECT_EQ(prom::label_set({}), "");
  EXPECT_EQ(prom::number(0.5), "0.5");
  EXPECT_EQ(prom::number(1.0 / 0.0), "+Inf");
}

TEST(RenderProm, OneSeriesPerFigureWithCeilingAndEfficiency) {
  Report rep = matrix_report(3);
  Record lat;
  lat.suite = "tcp";
  lat.name = "latency";
  lat.figure = time_figure("tcp.latency", 12.5, pair_subject("node0", 0, "node1", 1));
  rep.results.push_back(lat);
  Record skipped = goodput("node0", "node2", 0, 1);
  skipped.status = Status::skipped;
  skipped.figure->parameters["test"] = "retest";
  rep.results.push_back(skipped);
  const std::string text = render_prom(rep);
  const auto values = series_of(text, "gpunet_tcp_goodput_gbps");
  EXPECT_EQ(values.size(), 6u) << text;  // 3 × 2 directed pairs; the skipped record is left out
  EXPECT_NE(text.find("gpunet_tcp_goodput_gbps{src=\"node0\",dst=\"node1\",streams=\"1\",test=\"matrix\"} 0.25\n"),
            std::string::npos) << text;
  EXPECT_EQ(series_of(text, "gpunet_tcp_goodput_ceiling_gbps").size(), 6u);
  EXPECT_EQ(series_of(text, "gpunet_tcp_goodput_efficiency_ratio").size(), 6u);
  EXPECT_NE(text.find("gpunet_tcp_latency_seconds{src=\"node0\",dst=\"node1\"} 1.25e-05\n"), std::string::npos) << text;
  EXPECT_NE(text.find("# TYPE gpunet_tcp_goodput_gbps gauge\n"), std::string::npos);
  EXPECT_NE(text.find("gpunet_results{status=\"skipped\"} 1\n"), std::string::npos);
  EXPECT_EQ(text.find("gpunet_results{status=\"skipped\"} 1 "), std::string::npos);  // no timestamps
  const auto [rc, said] = promtool_check(text);
  EXPECT_EQ(rc, 0) << said << text;
}

TEST(RenderProm, HostileNamesStayInsideTheirLabels) {
  Report rep;
  rep.results.push_back(goodput("evil\"} 1\nfake_metric 2", "b\\c", 1, 2));
  const std::string text = render_prom(rep);
  EXPECT_EQ(text.find("\nfake_metric"), std::string::npos) << text;
  EXPECT_NE(text.find("src=\"evil\\\"} 1\\nfake_metric 2\",dst=\"b\\\\c\""), std::string::npos) << text;
  const auto [rc, said] = promtool_check(text);
  EXPECT_EQ(rc, 0) << said << text;
}

TEST(RenderProm, PairSeriesUpToTheNodeBoundThenPerHostAggregates) {
  const int small = kPromPairSeriesMaxNodes, large = kPromPairSeriesMaxNodes + 4;
  const std::string at_bound = render_prom(matrix_report(small));
  EXPECT_EQ(series_of(at_bound, "gpunet_tcp_goodput_gbps").size(), static_cast<size_t>(small * (small - 1)));
  const std::string beyond = render_prom(matrix_report(large));
  const auto values = series_of(beyond, "gpunet_tcp_goodput_gbps");
  // Per host: as sender and as receiver, min and median.
  EXPECT_EQ(values.size(), static_cast<size_t>(large * 2 * 2)) << beyond;
  EXPECT_EQ(beyond.find("src=\""), std::string::npos);
  // node5 receives 0.75 from every sender: its receiving min and median are both that.
  EXPECT_NE(beyond.find("gpunet_tcp_goodput_gbps{host=\"node5\",role=\"receiver\",streams=\"1\",test=\"matrix\",stat=\"min\"} 0.75\n"),
            std::string::npos) << beyond;
  EXPECT_NE(beyond.find("gpunet_tcp_goodput_efficiency_ratio{host=\"node5\",role=\"receiver\",streams=\"1\",test=\"matrix\",stat=\"median\"}"),
            std::string::npos);
  for (const auto& text : {at_bound, beyond}) {
    const auto [rc, said] = promtool_check(text);
    EXPECT_EQ(rc, 0) << said;
  }
}

TEST(RenderProm, PromtoolCheckCanFail) {
  // The check above means something only if promtool rejects a bad file.
  const auto [rc, said] = promtool_check("gpunet_bad_us{a=\"1\"} 1\n");
  EXPECT_NE(rc, 0) << "promtool is missing or accepts anything: " << said;
}
