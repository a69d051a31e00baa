// The run's one verdict (report/judge/run_verdict.hpp): how records, contract and baseline combine, and that
// report.md, report.html, report.json, junit.xml, metrics.prom and the exit code say the same in each
// outcome.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>

#include "gpunet/build_config.h"
#include "tests/support/spec_names.hpp"
#include "report/analysis/analysis.hpp"
#include "report/model/legacy_figure.hpp"
#include "report/render/renderers.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/judge/verdicts_outputs.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

Verdict promise(const std::string& name, VerdictStatus s) { return Verdict{name, s, "", "", "", {}, {}}; }

RunVerdictInputs healthy() {
  RunVerdictInputs in;
  in.records = RecordCounts{76, 0, 0, 0, 0, 0, 0.8};
  return in;
}

bool says(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A two-node run with its failed record left out, analysed: its records alone do not fail it.
Report clean_run() {
  std::ifstream in(std::string(GPUNET_SOURCE_DIR) + "/tests/accept/data/two_nodes_report.json");
  Report rep = json::parse(in).get<Report>();
  upgrade_legacy_report(rep);
  rep.results.erase(std::remove_if(rep.results.begin(), rep.results.end(),
                                   [](const Record& r) { return r.status == Status::failed; }),
                    rep.results.end());
  analyze(rep);
  return rep;
}

// What each output says the verdict is; every one must be found.
std::vector<std::string> outputs_say(const Report& rep) {
  std::vector<std::string> said;
  std::smatch m;
  const std::string md = render_markdown(rep);
  if (std::regex_search(md, m, std::regex(R"re(\*\*Verdict: ([A-Z]+)\*\*)re"))) said.push_back(m[1]);
  const std::string html = render_html(rep);
  if (std::regex_search(html, m, std::regex(R"re(<header class="verdict ([A-Z]+)"><h1>gpunet-bench: ([A-Z]+)<)re")))
    said.insert(said.end(), {m[1], m[2]});
  said.push_back(json::parse(render_json(rep)).at("extra").at("run_verdict").at("verdict").get<std::string>());
  const std::string junit = render_junit(rep);
  if (std::regex_search(junit, m, std::regex(R"re(name="run verdict ([A-Z]+)")re"))) said.push_back(m[1]);
  const std::string text = render_prom(rep);
  if (std::regex_search(text, m, std::regex(R"re(gpunet_run_verdict\{verdict="([A-Z]+)"\} 1\n)re"))) said.push_back(m[1]);
  return said;
}

void expect_outputs_agree(const Report& rep, const std::string& verdict, int exit_code) {
  const auto said = outputs_say(rep);
  EXPECT_EQ(said, std::vector<std::string>(6, verdict)) << render_markdown(rep).substr(0, 600);
  EXPECT_EQ(stored_judgement(rep).verdict.exit_code(), exit_code);
  const std::string junit = render_junit(rep);
  EXPECT_EQ(says(junit, "<failure type=\"FAIL\""), verdict == "FAIL");
}

}  // namespace

TEST(RunVerdict, RecordsAloneDecideWithoutContractOrBaseline) {
  auto in = healthy();
  auto v = decide_run_verdict(in);
  EXPECT_EQ(v.outcome, RunOutcome::pass);
  EXPECT_EQ(v.exit_code(), 0);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "records: 76 measured, none failed, every figure with a known ceiling reaches 80% of it at its best size");
  in.records->below = 3;
  EXPECT_EQ(decide_run_verdict(in).outcome, RunOutcome::warn);
  EXPECT_EQ(decide_run_verdict(in).exit_code(), 0);
  in.records->timed_out = 1;
  v = decide_run_verdict(in);
  EXPECT_EQ(v.outcome, RunOutcome::fail);
  EXPECT_EQ(v.reasons[0], "records: 76 measured; 1 timed out, 3 below 80% of their ceiling");
  in.records.reset();
  EXPECT_EQ(decide_run_verdict(in).outcome, RunOutcome::incomplete);
}

TEST(RunVerdict, AFailedPromiseFailsAHealthyRun) {
  // The case that shipped: every record passed, one promise failed, and the banner said PASS.
  auto in = healthy();
  in.contract = "acme-h200";
  in.promises = {promise("nic", VerdictStatus::pass), promise("bandwidth[0] tcp/goodput", VerdictStatus::fail)};
  const auto v = decide_run_verdict(in);
  EXPECT_EQ(v.outcome, RunOutcome::fail);
  EXPECT_EQ(v.exit_code(), 1);
  ASSERT_EQ(v.reasons.size(), 2u);
  EXPECT_EQ(v.reasons[0], "contract acme-h200: 1 of 2 promises failed (bandwidth[0] tcp/goodput)");
  EXPECT_TRUE(says(v.reasons[1], "records: 76 measured, none failed")) << v.reasons[1];
}

TEST(RunVerdict, UnjudgedPromisesMakeItIncompleteAndWarningsDoNotFail) {
  auto in = healthy();
  in.contract = "c";
  in.promises = {promise("a", VerdictStatus::pass), promise("b", VerdictStatus::skip)};
  EXPECT_EQ(decide_run_verdict(in).outcome, RunOutcome::incomplete);
  EXPECT_EQ(decide_run_verdict(in).exit_code(), kIncompleteExitCode);
  in.promises = {promise("a", VerdictStatus::warn)};
  EXPECT_EQ(decide_run_verdict(in).outcome, RunOutcome::warn);
  EXPECT_EQ(decide_run_verdict(in).exit_code(), 0);
  in.promises = {promise("a", VerdictStatus::fail), promise("b", VerdictStatus::skip)};
  const auto v = decide_run_verdict(in);
  EXPECT_EQ(v.outcome, RunOutcome::fail);
  EXPECT_EQ(v.reasons[1], "contract c: 1 of 2 promises could not be judged (b)");
}

TEST(RunVerdict, ASlowerFigureFailsAndUncertainOnesAreOnlyCounted) {
  auto in = healthy();
  BaselineComparison c;
  Comparison slower;
  slower.key = "mpi/allreduce 4 KiB p50";
  slower.change = Change::slower;
  Comparison unsure;
  unsure.change = Change::uncertain;
  c.rows = {unsure, unsure};
  in.baseline = &c;
  auto v = decide_run_verdict(in);
  EXPECT_EQ(v.outcome, RunOutcome::pass);
  EXPECT_EQ(v.reasons[1], "baseline: no figure of 2 SLOWER, 2 UNCERTAIN");
  c.rows.push_back(slower);
  v = decide_run_verdict(in);
  EXPECT_EQ(v.outcome, RunOutcome::fail);
  EXPECT_EQ(v.reasons[0], "baseline: 1 of 3 figures SLOWER (mpi/allreduce 4 KiB p50), 2 UNCERTAIN");
}

TEST(RunVerdict, EveryOutputSaysTheSameInEachOutcome) {
  const Report base = clean_run();
  const std::string records_only = to_string(stored_judgement(base).verdict.outcome);
  ASSERT_TRUE(records_only == "PASS" || records_only == "WARN") << records_only;
  expect_outputs_agree(base, records_only, 0);

  auto judged = [&](const std::string& spec_text) {
    Report rep = base;
    const auto spec = parse_spec(json::parse(spec_text), "c.json", gpunet::test_support::suite_spec_names());
    attach_verdicts(rep, spec, evaluate(rep, spec));
    return rep;
  };
  // A promise no figure keeps (an unreachable allreduce bandwidth) fails the run however clean its records.
  const Report failed = judged(R"({"spec_version": 1, "name": "strict",
      "pcie": {"gpu": {"gen": 4, "width": 16}}, "bandwidth": [{"suite": "mpi", "name": "allreduce", "min": 1e9}]})");
  expect_outputs_agree(failed, "FAIL", 1);
  EXPECT_TRUE(says(render_markdown(failed), "- contract strict: ")) << render_markdown(failed).substr(0, 600);
  // A promise about a suite that did not run cannot be judged.
  expect_outputs_agree(judged(R"({"spec_version": 1, "bandwidth": [{"suite": "rdma", "name": "latency", "min": 1}]})"),
                       "INCOMPLETE", kIncompleteExitCode);

  Report regressed = base;
  const auto before = make_baseline(base);
  Report slower = base;
  for (auto& r : slower.results)
    if (r.figure) {
      const double k = r.figure->better == Better::lower ? 3.0 : 1.0 / 3;
      r.figure->value *= k;
      for (auto& x : r.figure->samples) x *= k;
    }
  attach_comparison(regressed, "b.json", before.rule, compare(before, make_baseline(slower)));
  expect_outputs_agree(regressed, "FAIL", 1);
  EXPECT_TRUE(says(render_markdown(regressed), " SLOWER (")) << render_markdown(regressed).substr(0, 600);
}

namespace {

std::vector<std::string> titles(const std::string& text, const std::string& pattern) {
  std::vector<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

}  // namespace

TEST(Document, MarkdownAndHtmlHaveTheSameSectionsInTheSameOrder) {
  Report rep = clean_run();
  const auto spec = parse_spec(json::parse(R"({"spec_version": 1, "pcie": {"gpu": {"gen": 4, "width": 16}}})"), "c.json", gpunet::test_support::suite_spec_names());
  attach_verdicts(rep, spec, evaluate(rep, spec));
  const auto before = make_baseline(rep);
  attach_comparison(rep, "b.json", before.rule, compare(before, make_baseline(rep)));
  const auto md = titles(render_markdown(rep), R"re(\n## ([^\n]+)\n)re");
  const auto html = titles(render_html(rep), R"re(<h2[^>]*>([^<]+)</h2>)re");
  EXPECT_EQ(md, html);  // Charts too: report.md names the drawings report.html has (section_titles_test.py: h3 as well)
  ASSERT_GE(md.size(), 4u);
  // The verdict's evidence right under it: what is wrong, the contract, the baseline, then the summary.
  const auto at = [&](const std::string& prefix) {
    return std::find_if(md.begin(), md.end(), [&](const std::string& t) { return t.rfind(prefix, 0) == 0; }) - md.begin();
  };
  EXPECT_LE(at("Acceptance"), 1);
  EXPECT_EQ(at("Baseline"), at("Acceptance") + 1);
  EXPECT_EQ(at("Summary"), at("Baseline") + 1);
}
