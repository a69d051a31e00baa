// report::analyse, the one pipeline a run, `gpunet-bench report`, `report --spec/--baseline` and the
// history import share: what it judges, what it keeps of a stored judgement, and that judging does not
// change the training section.
#include <gtest/gtest.h>

#include "gpunet/build_config.h"
#include "report/analysed/analyse.hpp"
#include "report/analysis/fabric_view.hpp"
#include "report/judge/verdicts_outputs.hpp"
#include "report/render/outputs.hpp"
#include "tests/support/spec_names.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

Report fixture() {
  auto loaded = load_results(std::string(GPUNET_SOURCE_DIR) + "/tests/data/report/fixture.json");
  EXPECT_TRUE(loaded.report) << loaded.error;
  return *loaded.report;
}

// A contract the fixture's NCCL all-reduce meets and its MPI all-reduce cannot (and a third verdict:
// the fixture's tcp suite measured the default interface).
Spec contract() {
  return parse_spec(json::parse(R"({"spec_version": 1, "name": "two promises", "bandwidth": [
                                     {"suite": "nccl", "name": "allreduce", "min": 1e-9},
                                     {"suite": "mpi", "name": "allreduce", "min": 1e6}]})"),
                    "spec.json", gpunet::test_support::suite_spec_names());
}

training::TrainingParams step(double compute_s) {
  training::TrainingParams p;
  p.step_compute_s = compute_s;
  p.given = true;
  return p;
}

}  // namespace

TEST(Analyse, JudgesTheContractAndStoresWhatItJudged) {
  const Spec spec = contract();
  AnalyseInputs in;
  in.spec = &spec;
  const Analysed a = analyse(fixture(), in);
  ASSERT_EQ(a.judgement.verdicts.size(), 3u);
  EXPECT_EQ(a.judgement.verdicts[0].status, VerdictStatus::pass);
  EXPECT_EQ(a.judgement.verdicts[1].status, VerdictStatus::fail);
  EXPECT_EQ(a.judgement.verdict.outcome, RunOutcome::fail);
  EXPECT_EQ(a.judgement.verdict.exit_code(), 1);
  // The typed verdicts are the ones report.json carries, and the verdict is the one its renderers read.
  EXPECT_EQ(verdicts_of(a.report).size(), 3u);
  EXPECT_EQ(stored_judgement(a.report).verdict.reasons, a.judgement.verdict.reasons);
  EXPECT_FALSE(a.judgement.comparison);
  EXPECT_FALSE(a.figures);
}

TEST(Analyse, AStoredJudgementStandsUntilANewContractReplacesIt) {
  const Spec spec = contract();
  AnalyseInputs judged;
  judged.spec = &spec;
  const Analysed first = analyse(fixture(), judged);
  // A re-render (no inputs) reads the stored verdicts back and reaches the same verdict.
  const Analysed again = analyse(first.report);
  ASSERT_EQ(again.judgement.verdicts.size(), first.judgement.verdicts.size());
  EXPECT_EQ(again.judgement.verdicts[1].status, VerdictStatus::fail);
  EXPECT_EQ(again.judgement.verdict.outcome, first.judgement.verdict.outcome);
  EXPECT_EQ(again.judgement.verdict.reasons, first.judgement.verdict.reasons);
  // Inputs that judge nothing of the contract (`report --history`, --fabric, --save-baseline) keep it:
  // a failed contract is never re-rendered as a PASS.
  AnalyseInputs other;
  other.baseline_figures = true;
  other.fabric = json{{"switches", json::array()}};
  const Analysed kept = analyse(first.report, other);
  EXPECT_EQ(kept.judgement.verdicts.size(), first.judgement.verdicts.size());
  EXPECT_EQ(kept.judgement.verdict.outcome, RunOutcome::fail);
  EXPECT_EQ(kept.judgement.verdict.reasons, first.judgement.verdict.reasons);
  // A new contract replaces the stored one.
  const Spec lenient = parse_spec(json::parse(R"({"spec_version": 1, "name": "lenient", "bandwidth": [
                                                   {"suite": "nccl", "name": "allreduce", "min": 1e-9}]})"),
                                  "lenient.json", gpunet::test_support::suite_spec_names());
  AnalyseInputs replaced;
  replaced.spec = &lenient;
  const Analysed now = analyse(first.report, replaced);
  EXPECT_EQ(now.report.extra.at("spec").at("name"), "lenient");
  for (const auto& v : now.judgement.verdicts) EXPECT_NE(v.status, VerdictStatus::fail) << v.promise;
  for (const auto& reason : now.judgement.verdict.reasons) EXPECT_EQ(reason.find("two promises"), std::string::npos) << reason;
}

TEST(Analyse, AContractDoesNotChangeTheTrainingSection) {
  const Spec spec = contract();
  AnalyseInputs plain, judged;
  plain.training = judged.training = step(1.2);
  judged.spec = &spec;
  const json a = analyse(fixture(), plain).report.extra.at("training");
  const json b = analyse(fixture(), judged).report.extra.at("training");
  EXPECT_EQ(a.at("inputs").at("step_compute_s"), 1.2);
  EXPECT_EQ(a, b);
  // Without parameters, a re-render keeps those the report stored.
  const Analysed stored = analyse(analyse(fixture(), plain).report);
  EXPECT_EQ(stored.report.extra.at("training").at("inputs").at("step_compute_s"), 1.2);
}

TEST(Analyse, ABaselineOfTheSameRunFindsNothingSlower) {
  AnalyseInputs save;
  save.baseline_figures = true;
  const Analysed first = analyse(fixture(), save);
  ASSERT_TRUE(first.figures);
  ASSERT_FALSE(first.figures->figures.empty());
  EXPECT_FALSE(first.judgement.comparison);
  AnalyseInputs compare;
  compare.baseline = &*first.figures;
  compare.baseline_file = "base.json";
  const Analysed second = analyse(fixture(), compare);
  ASSERT_TRUE(second.judgement.comparison);
  EXPECT_EQ(second.judgement.comparison->rows.size(), first.figures->figures.size());
  for (const auto& r : second.judgement.comparison->rows) EXPECT_NE(r.change, Change::slower) << r.key;
  EXPECT_EQ(second.report.extra.at("baseline").at("file"), "base.json");
  EXPECT_EQ(second.judgement.verdict.outcome, first.judgement.verdict.outcome);  // the records' verdict, not made worse
}

TEST(Analyse, AGivenFabricIsPartOfTheReport) {
  AnalyseInputs in;
  in.fabric = json{{"switches", json::array({{{"name", "leaf1"}, {"hosts", {"a", "b"}}}})}};
  EXPECT_FALSE(has_fabric(analyse(fixture()).report));
  EXPECT_TRUE(has_fabric(analyse(fixture(), in).report));
}
