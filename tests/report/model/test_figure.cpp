// The figure model: identity, JSON round trip, the ceiling the analysis attaches (the one the console
// prints), and files of schema version 1 read into today's figures.
#include <set>

#include <gtest/gtest.h>

#include "gpunet/build_config.h"
#include "report/analysis/analysis.hpp"
#include "report/model/figure.hpp"
#include "report/model/json_fields.hpp"
#include "report/model/legacy_figure.hpp"
#include "report/render/outputs.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

const std::string kOld = std::string(GPUNET_SOURCE_DIR) + "/tests/data/schema_v1/";

json shaped_link(double rate_bps) {
  return json{{"kind", "ethernet"}, {"iface", "eth0"}, {"mtu", 1500}, {"ipv6", false}, {"tcp_timestamps", true},
              {"shaped_rate_bps", rate_bps}, {"loopback", false}, {"driver", "veth"}};
}

// A matrix flow src -> dst as the tcp suite builds it.
Record tcp_flow(const std::string& src, const std::string& dst, double gbps, double src_rate, double dst_rate) {
  Record r;
  r.suite = "tcp";
  r.name = "bandwidth";
  r.variant = "matrix";
  r.host = dst;
  r.extra = {{"link", shaped_link(src_rate)}, {"dst_link", shaped_link(dst_rate)}};
  r.figure = rate_figure("tcp.goodput", gbps, "Gb/s", pair_subject(src, 0, dst, 1), PathModel::tcp_flow);
  r.figure->parameters = {{"test", "matrix"}, {"streams", "1"}};
  return r;
}

}  // namespace

TEST(Figure, KeyIsMetricSubjectAndParameters) {
  Figure f = rate_figure("tcp.goodput", 0.9, "Gb/s", pair_subject("a", 0, "b", 2), PathModel::tcp_flow);
  f.parameters = {{"test", "matrix"}, {"streams", "1"}};
  EXPECT_EQ(figure_key(f), "tcp.goodput|pair:a/0->b/2|streams=1;test=matrix");
  Figure g = f;
  g.value = 0.1;  // the value is not part of the identity
  g.samples = {1, 2};
  EXPECT_EQ(figure_key(f), figure_key(g));
  g.parameters["streams"] = "4";
  EXPECT_NE(figure_key(f), figure_key(g));
  EXPECT_EQ(subject_key(group_subject("one-to-many", "a", 4)), "group:one-to-many@a/4n");
  EXPECT_EQ(metric_label(f), "goodput");
}

TEST(Figure, JsonRoundTrip) {
  Figure f = time_figure("tcp.latency", 21.5, pair_subject("a", 0, "b", 1));
  f.parameters = {{"bytes", "14"}};
  f.samples = {20, 21, 23};
  FigureCeiling c;
  c.reason = "a latency figure has no bandwidth ceiling";
  f.ceiling = std::make_shared<const FigureCeiling>(c);
  const Figure back = json(f).get<Figure>();
  EXPECT_EQ(figure_key(back), figure_key(f));
  EXPECT_EQ(back.better, Better::lower);
  EXPECT_EQ(back.samples, f.samples);
  ASSERT_TRUE(back.ceiling);
  EXPECT_FALSE(back.ceiling->known);
  EXPECT_EQ(back.ceiling->reason, c.reason);
  EXPECT_THROW(json({{"metric", "x.y"}, {"value", 1}, {"unit", "us"}, {"subject", {{"kind", "rack"}}}}).get<Figure>(),
               FieldError);
}

// A field of a figure or record read from a file: a null, a wrong type or a missing required field is
// named by its path and what was expected, never by the JSON library's words.
TEST(Figure, BadFieldsAreNamedByTheirPath) {
  const json good = json(time_figure("tcp.latency", 21.5, pair_subject("a", 0, "b", 1)));
  const auto problem = [&](const std::string& pointer, const json& value) {
    json j = good;
    if (value.is_discarded())
      j.at(json::json_pointer(pointer.substr(0, pointer.rfind('/')))).erase(pointer.substr(pointer.rfind('/') + 1));
    else
      j[json::json_pointer(pointer)] = value;
    try {
      json{{"suite", "tcp"}, {"name", "latency"}, {"status", "passed"}, {"figure", j}}.get<Record>();
    } catch (const FieldError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(problem("/value", nullptr), "figure.value: expected a number, got null");
  EXPECT_EQ(problem("/value", "fast"), "figure.value: expected a number, got a string");
  EXPECT_EQ(problem("/unit", json::value_t::discarded), "figure.unit: missing");
  EXPECT_EQ(problem("/subject/host", nullptr), "figure.subject.host: expected a string, got null");
  EXPECT_EQ(problem("/subject/rank", 1.5), "figure.subject.rank: expected a whole number, got a number");
  EXPECT_EQ(problem("/samples", json{20.5, nullptr}), "figure.samples[1]: expected a number, got null");
  EXPECT_EQ(problem("/parameters", json{{"bytes", 14}}), "figure.parameters.bytes: expected a string, got a number");
  EXPECT_EQ(problem("/subject", nullptr), "figure.subject: expected an object, got null");
  EXPECT_EQ(problem("/path", "wormhole"), "figure.path: unknown path model 'wormhole'");
  EXPECT_EQ(problem("/efficiency", nullptr), "accepted");  // a NaN efficiency is written as null
  try {
    json{{"suite", "tcp"}, {"name", "x"}, {"status", "passed"}, {"time_us", {{"min", 1}}}}.get<Record>();
    ADD_FAILURE() << "a time_us without p50 was accepted";
  } catch (const FieldError& e) {
    EXPECT_STREQ(e.what(), "time_us.p50: missing");
  }
  EXPECT_THROW((json{{"suite", "tcp"}, {"name", "x"}, {"status", "passed"}, {"ranks", 1e12}}.get<Record>()), FieldError);
}

// A 4-node cluster, one node at 250 Mbit/s: the flow into it is bounded by its link, and the console
// (attach_ceiling on the live record) says what the analysis says.
TEST(Figure, SlowReceiverBoundsTheFlowInConsoleAndReport) {
  Report rep;
  rep.results = {tcp_flow("n2", "n3", 0.239, 1e9, 250e6), tcp_flow("n3", "n2", 0.239, 250e6, 1e9),
                 tcp_flow("n0", "n1", 0.95, 1e9, 1e9)};
  Record live = rep.results[0];
  const json no_topology = json::object();
  attach_ceiling(live, rep.provenance, TopologyView(no_topology));
  analyze(rep);
  const double slow = 0.25 * 1448.0 / 1514.0;
  for (int i : {0, 1}) {
    const Figure& f = *rep.results[static_cast<size_t>(i)].figure;
    ASSERT_TRUE(f.ceiling && f.ceiling->known) << i;
    EXPECT_NEAR(f.ceiling->value, slow, 1e-9) << i;
    EXPECT_NEAR(*f.efficiency, 0.239 / slow, 1e-9) << i;
    EXPECT_FALSE(f.ceiling->source.empty());
  }
  EXPECT_NEAR(rep.results[2].figure->ceiling->value, 1448.0 / 1514.0, 1e-9);
  EXPECT_EQ(live.figure->ceiling->value, rep.results[0].figure->ceiling->value);
  EXPECT_EQ(*live.figure->efficiency, *rep.results[0].figure->efficiency);
}

TEST(Figure, OneToManyFlowGetsItsShareOfTheSendersLink) {
  Record r = tcp_flow("n0", "n1", 0.3, 1e9, 1e9);
  r.figure->parameters["test"] = "one-to-many";
  r.figure->sending_share = 3;
  const json no_topology = json::object();
  const auto c = figure_ceiling(r, Provenance{}, TopologyView(no_topology));
  ASSERT_TRUE(c.known);
  EXPECT_NEAR(c.value, 1448.0 / 1514.0 / 3, 1e-9);
  EXPECT_NE(c.derivation.find("shared by 3 flows"), std::string::npos) << c.derivation;
}

// report.json and results.jsonl written by the version before figures (tests/data/schema_v1).
TEST(Figure, Version1FilesBecomeTodaysFigures) {
  for (const char* name : {"mpi_node_report.json", "mpi_node_results.jsonl", "tcp_results.jsonl"}) {
    const auto loaded = load_results(kOld + name);
    ASSERT_TRUE(loaded.report) << name << ": " << loaded.error;
    const Report& rep = *loaded.report;
    EXPECT_EQ(rep.schema_version, kSchemaVersion) << name;
    std::set<std::string> keys;
    int figures = 0;
    for (const Record& r : rep.results) {
      const bool measured = r.status != Status::skipped && (r.suite == "mpi" || r.suite == "node" ||
                                                            r.name == "bandwidth" || r.name == "aggregate" ||
                                                            r.name == "latency");
      EXPECT_EQ(r.figure.has_value(), measured) << name << ": " << r.suite << " " << r.name << " " << r.variant;
      if (!r.figure) continue;
      ++figures;
      EXPECT_TRUE(keys.insert(figure_key(*r.figure)).second) << name << ": two figures " << figure_key(*r.figure);
      EXPECT_FALSE(r.extra.contains("ceiling_Gbps")) << name;
    }
    EXPECT_GT(figures, 0) << name;
  }
  const auto tcp = load_results(kOld + "tcp_results.jsonl");
  int pairs = 0, groups = 0, latencies = 0;
  for (const Record& r : tcp.report->results) {
    if (!r.figure) continue;
    pairs += r.figure->metric == "tcp.goodput" && r.figure->subject.kind == SubjectKind::pair;
    groups += r.figure->subject.kind == SubjectKind::group;
    latencies += r.figure->metric == "tcp.latency" && r.figure->better == Better::lower;
    if (r.variant == "one-to-many" && r.name == "bandwidth") {
      EXPECT_EQ(r.figure->sending_share, 2);
    }
  }
  EXPECT_EQ(pairs, 3 + 6 + 2 + 2);  // neighbours, matrix, one-to-many, many-to-one
  EXPECT_EQ(groups, 2);
  EXPECT_EQ(latencies, 3);
}
