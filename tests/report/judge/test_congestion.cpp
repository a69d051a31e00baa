// Congestion impact in the report: the CIF arithmetic, the "Congestion impact" table (report.md and
// report.html), the spec's congestion promise and its reader's errors.
#include <gtest/gtest.h>

#include <regex>

#include "tests/support/spec_names.hpp"
#include "report/analysis/analysis.hpp"
#include "report/analysis/congestion.hpp"
#include "report/render/renderers.hpp"
#include "report/judge/spec.hpp"
#include "report/document/table_model.hpp"
#include "report/judge/verdicts.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

// A victim's CIF record as the tcp suite writes it (bench/suites/tcp/congestion_records.cpp).
Record victim_cif(const std::string& src, const std::string& dst, const std::string& measure, double iso, double con) {
  const auto* m = congestion_measure(measure);
  Record r;
  r.suite = "tcp";
  r.name = "congestion";
  r.variant = measure;
  r.host = src;
  r.ranks = 2;
  r.extra = {{"victim", src + " -> " + dst}, {"isolated", iso}, {"congested", con}, {"unit", m->unit}};
  const auto cif = congestion_impact(iso, con, m->better);
  Figure f;
  f.metric = congestion_metric(measure);
  f.value = cif.value_or(0);
  f.unit = kCongestionUnit;
  f.better = Better::lower;
  f.subject = pair_subject(src, 0, dst, 2);
  r.figure = f;
  return r;
}

Report congestion_run(double bw_congested) {
  Report rep;
  rep.results = {victim_cif("node-0", "node-2", "latency_p50", 40, 90), victim_cif("node-0", "node-2", "latency_p99", 60, 150),
                 victim_cif("node-0", "node-2", "bandwidth", 0.094, bw_congested)};
  Record overall = victim_cif("node-0", "node-2", "bandwidth", 0.094, bw_congested);
  overall.extra["victim"] = "all victims";
  overall.extra["worst"] = overall.figure->value;
  overall.extra["worst_victim"] = "node-0 -> node-2";
  overall.figure->subject = cluster_subject(4);
  rep.results.push_back(overall);
  return rep;
}

Spec congestion_spec(const json& congestion) {
  return parse_spec({{"spec_version", 2}, {"congestion", congestion}}, "spec.json", gpunet::test_support::suite_spec_names());
}

}  // namespace

TEST(Congestion, CifIsCongestedOverIsolatedForTimesAndIsolatedOverCongestedForRates) {
  EXPECT_DOUBLE_EQ(*congestion_impact(10, 25, Better::lower), 2.5);
  EXPECT_DOUBLE_EQ(*congestion_impact(0.09, 0.03, Better::higher), 3.0);
  EXPECT_DOUBLE_EQ(*congestion_impact(5, 5, Better::higher), 1.0);
  EXPECT_FALSE(congestion_impact(0, 3, Better::lower));
  EXPECT_FALSE(congestion_impact(3, 0, Better::higher));
  EXPECT_FALSE(congestion_impact(std::nan(""), 1, Better::lower));
  const auto o = congestion_overall({1.5, 4.0, 2.5});
  ASSERT_TRUE(o);
  EXPECT_DOUBLE_EQ(o->mean, 8.0 / 3);
  EXPECT_DOUBLE_EQ(o->worst, 4.0);
  EXPECT_EQ(o->worst_index, 1u);
  EXPECT_FALSE(congestion_overall({}));
}

TEST(Congestion, TableInMarkdownAndHtmlHasEachVictimItsFiguresAndTheOverall) {
  Report rep = congestion_run(0.031);
  analyze(rep, {});
  const auto tables = congestion_tables(rep, TableRecords(rep));
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].rows.size(), 5u);  // 3 victim rows, the overall bandwidth and its worst victim
  EXPECT_EQ(tables[0].rows[1].cells[1].text, "latency p99");
  EXPECT_EQ(tables[0].rows[1].cells[5].text, "2.50");
  EXPECT_EQ(tables[0].rows[3].cells[0].text, "all victims (mean)");
  EXPECT_EQ(tables[0].rows[4].cells[0].text, "worst: node-0 -> node-2");
  for (const auto& r : rep.results) EXPECT_EQ(record_table_kind(r), TableKind::congestion);
  const std::string md = render_markdown(rep), html = render_html(rep);
  EXPECT_NE(md.find("## Congestion impact"), std::string::npos);
  EXPECT_NE(html.find("<h2>Congestion impact</h2>"), std::string::npos);
  EXPECT_TRUE(std::regex_search(md, std::regex(R"(\| node-0 -> node-2 +\| bandwidth +\| +0\.094 +\| +0\.031 +\| Gb/s +\| +3\.03 \|)")))
      << md;
}

TEST(Congestion, PromiseFailsNamingTheVictimAndMeasureOverTheBound) {
  const auto fail = evaluate(congestion_run(0.02), congestion_spec({{"max_cif", 3.0}}));
  ASSERT_EQ(fail.size(), 1u);
  EXPECT_EQ(fail[0].status, VerdictStatus::fail);
  EXPECT_NE(fail[0].reason.find("node-0 -> node-2 bandwidth: CIF 4.70"), std::string::npos) << fail[0].reason;
  EXPECT_EQ(fail[0].reason.find("latency"), std::string::npos) << "latency p99 at 2.5 is within: " << fail[0].reason;
  EXPECT_TRUE(fail[0].hosts.empty()) << "a congested path blames no node";
  const auto pass = evaluate(congestion_run(0.05), congestion_spec({{"max_cif", 3.0}}));
  EXPECT_EQ(pass[0].status, VerdictStatus::pass) << pass[0].reason;
  EXPECT_NE(pass[0].measured.find("worst CIF 2.50"), std::string::npos) << pass[0].measured;
}

TEST(Congestion, PromiseSkipsWithTheReasonWhenTheTestDidNotRun) {
  Report none;
  EXPECT_EQ(evaluate(none, congestion_spec({{"max_cif", 2}}))[0].status, VerdictStatus::skip);
  Report few;
  Record skipped;
  skipped.suite = "tcp";
  skipped.name = "congestion";
  skipped.status = Status::skipped;
  skipped.reason = "congestion needs 4 or more participants";
  few.results.push_back(skipped);
  const auto v = evaluate(few, congestion_spec({{"max_cif", 2}}));
  EXPECT_EQ(v[0].status, VerdictStatus::skip);
  EXPECT_EQ(v[0].reason, skipped.reason);
}

TEST(Congestion, SpecReaderNamesTheFieldOfABadPromise) {
  EXPECT_DOUBLE_EQ(congestion_spec({{"max_cif", 3.0}}).congestion->max_cif, 3.0);
  const std::vector<std::pair<json, std::string>> bad{
      {json::object(), "congestion.max_cif: missing"},
      {{{"max_cif", "3"}}, "congestion.max_cif: expected a number"},
      {{{"max_cif", 0.5}}, "congestion.max_cif: 0.5 is out of range"},
      {{{"max_cif", 3}, {"min_cif", 1}}, "congestion.min_cif: unknown key"},
      {json::array(), "congestion"}};
  for (const auto& [doc, want] : bad) {
    try {
      congestion_spec(doc);
      ADD_FAILURE() << doc.dump();
    } catch (const SpecError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
}
