// The verdict and baseline tables in report.md, report.html and junit.xml: read back from the report,
// escaped, and counted in the JUnit totals.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <tuple>

#include "gpunet/build_config.h"
#include "tests/support/judged_markdown.hpp"
#include "tests/support/spec_names.hpp"
#include "report/model/legacy_figure.hpp"
#include "report/render/renderers.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/judge/verdicts_outputs.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

Report judged() {
  std::ifstream in(std::string(GPUNET_SOURCE_DIR) + "/tests/accept/data/two_nodes_report.json");
  Report rep = json::parse(in).get<Report>();
  upgrade_legacy_report(rep);  // a version-1 file, as the report reader loads it
  const auto spec = parse_spec(json::parse(R"({"spec_version": 1, "name": "<b>contract</b>",
      "pcie": {"gpu": {"gen": 4, "width": 16}},
      "latency": [{"suite": "tcp", "name": "latency", "max_p99_us": 100}],
      "bandwidth": [{"suite": "rdma", "name": "latency", "min": 1}]})"), "c.json", gpunet::test_support::suite_spec_names());
  attach_verdicts(rep, spec, evaluate(rep, spec));
  const auto base = make_baseline(rep);
  auto slower = rep;
  for (auto& r : slower.results) {
    r.time_us.min *= 3, r.time_us.p50 *= 3;
    if (r.figure) {  // what the baseline reads: the figure, 3x worse in its direction
      const double k = r.figure->better == Better::lower ? 3.0 : 1.0 / 3;
      r.figure->value *= k;
      for (auto& x : r.figure->samples) x *= k;
    }
    if (r.extra.contains("goodput_Gbps")) r.extra["goodput_Gbps"] = r.extra["goodput_Gbps"].get<double>() / 3;
    if (r.extra.contains("timeline_Gbps"))
      for (auto& x : r.extra["timeline_Gbps"]) x = x.get<double>() / 3;
  }
  attach_comparison(rep, "base & <old>.json", base.rule, compare(base, make_baseline(slower)));
  return rep;
}

bool contains_text(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// 20,000 compared figures f0 .. f19999 of 10 Gb/s, on seven hosts; `verdict(i)` gives each its change
// and its change in percent.
template <class Verdict>
BaselineComparison many_figures(const std::string& method, Verdict&& verdict) {
  BaselineComparison c;
  for (int i = 0; i < 20000; ++i) {
    Comparison r;
    r.key = "f" + std::to_string(i);
    r.base_value = 10, r.unit = "Gb/s", r.method = method, r.reason = "why";
    std::tie(r.change, r.change_pct) = verdict(i);
    r.hosts = {"h" + std::to_string(i % 7)};
    c.rows.push_back(r);
  }
  return c;
}

}  // namespace

TEST(AcceptanceOutputs, ReadBackFromTheReport) {
  const auto rep = judged();
  const auto v = verdicts_of(rep);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].status, VerdictStatus::fail);
  EXPECT_EQ(v[1].status, VerdictStatus::skip);  // topology promises first, then bandwidth, then latency
  EXPECT_EQ(v[2].status, VerdictStatus::pass);
  const auto c = comparison_of(rep);
  ASSERT_EQ(c.rows.size(), 8u);  // passed records with timed iterations or a goodput
  for (const auto& r : c.rows) EXPECT_EQ(r.change, Change::slower) << r.key << ": " << r.reason;
  // A goodput that fell to a third is SLOWER, and the hosts of its subject are named.
  const auto g = std::find_if(c.rows.begin(), c.rows.end(), [](const Comparison& r) { return r.unit == "Gb/s"; });
  ASSERT_NE(g, c.rows.end());
  EXPECT_NEAR(*g->change_pct, -66.7, 0.1);
  EXPECT_FALSE(g->hosts.empty());
  EXPECT_TRUE(verdicts_of(Report{}).empty());
  EXPECT_TRUE(acceptance_sections(Report{}, stored_judgement(Report{})).empty());
  EXPECT_EQ(acceptance_junit(stored_judgement(Report{})).xml, "");
}

TEST(AcceptanceOutputs, MarkdownAndHtmlAreEscaped) {
  const auto rep = judged();
  const auto md = render_markdown(rep);
  EXPECT_TRUE(contains_text(md, "## Acceptance: \\<b>contract\\</b>")) << md.substr(0, 2000);
  EXPECT_TRUE(contains_text(gpunet::test_support::squeezed(md), "| pcie.gpu | **FAIL** | Gen4 x8 (node-b 0000:65:00.0) |")) << md.substr(0, 3000);
  EXPECT_TRUE(contains_text(md, "## Baseline: base \\& \\<old>.json"));
  const auto html = render_html(rep);
  EXPECT_TRUE(contains_text(html, "<h2>Acceptance: &lt;b&gt;contract&lt;/b&gt;</h2>"));
  EXPECT_FALSE(contains_text(html, "<b>contract</b>"));
  EXPECT_TRUE(contains_text(html, "<tr class=\"failed\"><td>pcie.gpu</td><td><b>FAIL</b></td>")) << html.substr(0, 4000);
  EXPECT_TRUE(contains_text(html, "<h2>Baseline: base &amp; &lt;old&gt;.json</h2>"));
}

TEST(AcceptanceOutputs, JunitSuitesAndTotals) {
  const auto rep = judged();
  const auto xml = render_junit(rep);
  const auto n = acceptance_junit(stored_judgement(rep)).counts;
  EXPECT_EQ(n.tests, 3 + 8);
  EXPECT_EQ(n.failures, 1 + 8);
  EXPECT_EQ(n.skipped, 1 + 0);
  EXPECT_TRUE(contains_text(xml, "<testsuite name=\"acceptance\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""));
  EXPECT_TRUE(contains_text(xml, "<testsuite name=\"baseline\" tests=\"8\" failures=\"8\" errors=\"0\" skipped=\"0\""));
  EXPECT_TRUE(contains_text(xml, "<failure type=\"verdict\" message=\"measured Gen4 x8 (node-b 0000:65:00.0), limit &gt;= Gen4 x16:"));
  EXPECT_TRUE(contains_text(xml, "<failure type=\"regression\""));
  // The <testsuites> totals count the records, the two new suites and the run verdict's testcase.
  const auto tests = "tests=\"" + std::to_string(rep.results.size() + 11 + 1) + "\"";
  EXPECT_TRUE(contains_text(xml.substr(0, xml.find('\n', xml.find("<testsuites"))), tests)) << xml.substr(0, 300);
  EXPECT_LT(xml.find("<testsuite name=\"acceptance\""), xml.find("</testsuites>"));
}

TEST(AcceptanceOutputs, AComparisonOfManyFiguresShowsTheWorstAndWritesEveryOne) {
  // A matrix of 64 nodes compares 4,032 figures, of 1,024 a million: the documents show 1,000.
  BaselineComparison c;
  for (int i = 0; i < 1500; ++i) {
    Comparison r;
    r.key = "tcp/bandwidth/matrix goodput_Gbps pair" + std::to_string(i);
    r.base_value = 10, r.unit = "Gb/s", r.method = "U test", r.reason = "why " + std::to_string(i);
    r.change = i % 300 == 7 ? Change::slower : i == 1000 ? Change::uncertain : Change::same;
    r.change_pct = r.change == Change::slower ? -10.0 - i / 100.0 : 1.0;
    r.now_value = 10 * (1 + *r.change_pct / 100);
    c.rows.push_back(r);
  }
  const auto shown = comparison_rows_shown(c);
  ASSERT_EQ(shown.size(), 1000u);
  EXPECT_EQ(std::vector<std::size_t>(shown.begin(), shown.begin() + 6), (std::vector<std::size_t>{1207, 907, 607, 307, 7, 1000}));
  EXPECT_EQ(comparison_rows_shown(c, 2000).size(), 1500u);
  EXPECT_EQ(comparison_rows_not_shown(c, 1500), std::nullopt);

  const std::string left_out = "1000 of 1500 figures shown: the SLOWER, then UNCERTAIN, FASTER and SAME, each largest change first; "
                               "every figure is in baseline.csv.";
  const auto console = render_comparison_console(c);
  EXPECT_EQ(std::count(console.begin(), console.end(), '\n'), 1 + 1000 + 2);
  EXPECT_TRUE(contains_text(console, left_out));
  EXPECT_LT(console.find("pair1207 "), console.find("pair7 "));

  Report rep;
  attach_comparison(rep, "b.json", CompareRule{}, c);
  const auto parts = document_parts(rep);
  const auto md = render_markdown(parts);
  EXPECT_TRUE(contains_text(md, left_out));
  std::size_t md_rows = 0;
  for (std::size_t at = md.find("| tcp/bandwidth/matrix goodput_Gbps pair"); at != std::string::npos;
       at = md.find("| tcp/bandwidth/matrix goodput_Gbps pair", at + 1))
    ++md_rows;
  EXPECT_EQ(md_rows, 1000u);
  const auto csvs = render_table_csvs(parts);
  const auto csv = std::find_if(csvs.begin(), csvs.end(), [](const auto& f) { return f.first == "baseline.csv"; });
  ASSERT_NE(csv, csvs.end());
  EXPECT_EQ(std::count(csv->second.begin(), csv->second.end(), '\n'), 1 + 1500);
  EXPECT_EQ(csv->second.substr(0, csv->second.find('\n')), "figure,baseline,now,change_pct,test,verdict,reason");
  EXPECT_TRUE(contains_text(csv->second, "pair0,10.0 Gb/s,10.1 Gb/s,1,U test,SAME,why 0\n")) << csv->second.substr(0, 400);
}

TEST(AcceptanceOutputs, AComparisonAboveSixteenThousandFiguresListsTheSlowerAndTheShownInReportJson) {
  // 20,000 figures (a matrix of 142 nodes): report.json lists every SLOWER row (1,500 here, more than the
  // documents show) and the 1,000 shown, and counts the rest; read back, every count is the same.
  const auto c = many_figures("U test", [](int i) {
    const Change x = i % 10 == 3 && i < 15000 ? Change::slower : i % 100 == 5 ? Change::uncertain : i % 100 == 6 ? Change::faster : Change::same;
    return std::pair(x, x == Change::slower ? -50.0 : x == Change::faster ? 30.0 : x == Change::uncertain ? -20.0 : 0.5);
  });
  const auto listed = comparison_rows_listed(c);
  ASSERT_EQ(listed.size(), 20000u);
  EXPECT_EQ(static_cast<std::size_t>(std::count(listed.begin(), listed.end(), true)), 1500u);  // the shown are SLOWER
  EXPECT_TRUE(comparison_rows_listed(c, 20000).empty());

  Report rep;
  attach_comparison(rep, "b.json", CompareRule{}, c);
  const auto back = comparison_of(rep);
  EXPECT_EQ(back.rows.size(), 1500u);
  EXPECT_EQ(back.figures(), 20000u);
  EXPECT_EQ(back.not_listed.uncertain, 200u);
  EXPECT_EQ(back.not_listed.faster, 200u);
  EXPECT_EQ(back.not_listed.same, 20000u - 1500 - 400);
  EXPECT_EQ(comparison_summary(back), comparison_summary(c));
  EXPECT_EQ(regression_exit_code(back), 1);
  EXPECT_EQ(run_verdict_of(rep, {}, back).reasons, run_verdict_of(rep, {}, c).reasons);

  const auto junit = acceptance_junit(stored_judgement(rep));
  EXPECT_EQ(junit.counts.tests, 1501);
  EXPECT_EQ(junit.counts.failures, 1500);
  EXPECT_TRUE(contains_text(junit.xml, "name=\"18500 figures not listed\""));
  EXPECT_TRUE(contains_text(junit.xml, "18100 SAME, 200 FASTER, 200 UNCERTAIN; every figure is in the run&apos;s baseline.csv") ||
              contains_text(junit.xml, "18100 SAME, 200 FASTER, 200 UNCERTAIN; every figure is in the run's baseline.csv"))
      << junit.xml.substr(junit.xml.size() - 600);
  const auto md = render_markdown(rep);
  EXPECT_TRUE(contains_text(md, "1000 of 20000 figures shown: the SLOWER, then UNCERTAIN, FASTER and SAME, each largest change first; "
                                "report.json lists every SLOWER one, the run's own baseline.csv every figure."));
}

TEST(AcceptanceOutputs, AboveSixteenThousandFiguresWithFewSlowerReportJsonListsTheShownRows) {
  // 10 SLOWER, 500 UNCERTAIN among 20,000: report.json lists the 1,000 rows the documents show (the
  // SLOWER, the UNCERTAIN, then the SAME with the largest change), no more.
  const auto c = many_figures("U test", [](int i) {
    return i % 2000 == 7 ? std::pair(Change::slower, -40.0) : i % 40 == 1 ? std::pair(Change::uncertain, -20.0)
                                                                           : std::pair(Change::same, (i % 97) / 10.0);
  });
  const auto listed = comparison_rows_listed(c);
  const auto shown = comparison_rows_shown(c);
  ASSERT_EQ(shown.size(), 1000u);
  std::vector<bool> want(c.rows.size(), false);
  for (const std::size_t i : shown) want[i] = true;
  EXPECT_EQ(listed, want);
  std::size_t unlisted_changes = 0;
  for (std::size_t i = 0; i < c.rows.size(); ++i) unlisted_changes += c.rows[i].change != Change::same && !listed[i];
  EXPECT_EQ(unlisted_changes, 0u);
}

TEST(AcceptanceOutputs, PastSixteenThousandSlowerFiguresReportJsonListsTheLargestChanges) {
  // Half the nodes of a large matrix slow: 18,000 SLOWER figures of 20,000. report.json lists the 16,384
  // with the largest change and counts the others; read back, the summary, the exit code and the run
  // verdict are the same, and junit fails on the figures it counts.
  const auto c = many_figures("separation", [](int i) {
    return i < 18000 ? std::pair(Change::slower, -30.0 - i % 50) : std::pair(Change::same, 0.5);
  });
  const auto listed = comparison_rows_listed(c);
  EXPECT_EQ(static_cast<std::size_t>(std::count(listed.begin(), listed.end(), true)), 16384u);
  double smallest_listed = 1e9, largest_left = 0;  // of the SLOWER drops
  for (std::size_t i = 0; i < listed.size(); ++i) {
    if (c.rows[i].change != Change::slower) continue;
    const double drop = -*c.rows[i].change_pct;
    if (listed[i]) smallest_listed = std::min(smallest_listed, drop);
    else largest_left = std::max(largest_left, drop);
  }
  EXPECT_GE(smallest_listed, largest_left);
  EXPECT_GT(largest_left, 0);
  Report rep;
  attach_comparison(rep, "b.json", CompareRule{}, c);
  const auto back = comparison_of(rep);
  EXPECT_EQ(back.rows.size(), 16384u);
  EXPECT_EQ(back.not_listed.slower, 18000u - 16384);
  EXPECT_EQ(back.figures(), 20000u);
  EXPECT_EQ(comparison_summary(back), comparison_summary(c));
  EXPECT_EQ(regression_exit_code(back), 1);
  const auto said = run_verdict_of(rep, {}, back);  // names the largest changes it lists: f4, f5, ...
  EXPECT_EQ(said.outcome, RunOutcome::fail);
  ASSERT_FALSE(said.reasons.empty());
  EXPECT_EQ(said.reasons[0], "baseline: 18000 of 20000 figures SLOWER (f4, f5, f6 and 17997 more)");
  const auto junit = acceptance_junit(stored_judgement(rep));
  EXPECT_EQ(junit.counts.failures, 16384 + 1);
  EXPECT_TRUE(contains_text(junit.xml, "name=\"3616 figures not listed\""));
  EXPECT_TRUE(contains_text(junit.xml, "1616 SLOWER, 2000 SAME, 0 FASTER, 0 UNCERTAIN")) << junit.xml.substr(junit.xml.size() - 600);
}
