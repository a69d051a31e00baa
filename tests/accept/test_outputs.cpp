// The verdict and baseline tables in report.md, report.html and junit.xml: read back from the report,
// escaped, and counted in the JUnit totals.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "gpunet/build_config.h"
#include "tests/support/judged_markdown.hpp"
#include "tests/support/spec_names.hpp"
#include "report/model/legacy_figure.hpp"
#include "report/render/renderers.hpp"
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
