// A figure's parameters: read like a map, shared by copies until one is changed, and shared by the
// records of a results.jsonl that carry equal sets.
#include <string>

#include <gtest/gtest.h>

#include "report/model/figure_parameters.hpp"
#include "report/model/record.hpp"
#include "report/render/results_jsonl.hpp"

using namespace gpunet::report;
using gpunet::json;

TEST(FigureParameters, ReadsLikeAMapAndWritesAsOne) {
  const FigureParameters none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.begin(), none.end());
  EXPECT_EQ(none.count("test"), 0u);
  EXPECT_EQ(json(none), json::object());
  const FigureParameters p = {{"test", "matrix"}, {"streams", "1"}};
  EXPECT_EQ(p.size(), 2u);
  EXPECT_EQ(p.at("test"), "matrix");
  EXPECT_EQ(p.find("streams")->second, "1");
  EXPECT_EQ(p.find("bytes"), p.end());
  EXPECT_EQ(p.begin()->first, "streams");  // sorted
  EXPECT_EQ(json(p).dump(), R"({"streams":"1","test":"matrix"})");
  EXPECT_EQ(p, (FigureParameters::Map{{"streams", "1"}, {"test", "matrix"}}));
  EXPECT_EQ(FigureParameters(FigureParameters::Map{}), none);
}

TEST(FigureParameters, ACopyIsSharedUntilOneOfThemChanges) {
  FigureParameters a = {{"test", "matrix"}};
  FigureParameters b = a;
  EXPECT_TRUE(a.shares(b));
  b["direction"] = "bidirectional";
  EXPECT_FALSE(a.shares(b));
  EXPECT_EQ(a.size(), 1u) << "the change reached the copy it came from";
  EXPECT_EQ(b.size(), 2u);
  FigureParameters c = a;
  EXPECT_EQ(c.erase("test"), 1u);
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(a.at("test"), "matrix");
  FigureParameters d;
  d["bytes"] = "8";  // from none
  EXPECT_EQ(d.at("bytes"), "8");
}

// A matrix's million flows hold one map a distinct set, not one a flow.
TEST(FigureParameters, ARecordsFileGivesEqualSetsOneMap) {
  std::string text;
  for (const char* test : {"matrix", "matrix", "retest", "matrix"}) {
    Record r;
    r.suite = "tcp";
    r.name = "bandwidth";
    r.kind = RecordKind::tcp_flow;
    r.figure = rate_figure("tcp.goodput", 9.5, "Gb/s", pair_subject("a", 0, "b", 1), PathModel::tcp_flow);
    r.figure->parameters = {{"test", test}, {"streams", "1"}};
    text += json(r).dump() + "\n";
  }
  const LoadedResults loaded = read_results_jsonl("flows.jsonl", text);
  ASSERT_TRUE(loaded.report) << loaded.error;
  const auto& rs = loaded.report->results;
  ASSERT_EQ(rs.size(), 4u);
  const auto params = [&](std::size_t i) -> const FigureParameters& { return rs[i].figure->parameters; };
  EXPECT_TRUE(params(0).shares(params(1)));
  EXPECT_TRUE(params(0).shares(params(3)));
  EXPECT_FALSE(params(0).shares(params(2)));
  EXPECT_EQ(params(2).at("test"), "retest");
  EXPECT_EQ(params(3).at("test"), "matrix");
}
