// The one analysis of a report, which a run, `gpunet-bench report`, `report --spec/--baseline` and the
// history import all call: the ceilings and efficiencies of every record, the training section, the
// contract's verdicts, the baseline comparison and the run verdict, in that order (each reads what the
// ones before it attached). What the console prints and what the renderers write read its result, so
// the three commands cannot judge one report three ways.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "report/analysis/analysis.hpp"
#include "report/judge/baseline.hpp"
#include "report/judge/judgement.hpp"
#include "report/judge/spec.hpp"
#include "report/model/record.hpp"
#include "report/training/training_params.hpp"
#include "report/training/training_result.hpp"

namespace gpunet::report {

// What the user gave besides the records. Nothing here is owned: the spec and the baseline outlive the call.
struct AnalyseInputs {
  // A stored report's judgement stands until an input replaces it: a spec replaces its verdicts, a
  // baseline its comparison. Anything else (--history, --fabric, --save-baseline) keeps both.
  const Spec* spec = nullptr;          // --spec: the contract is judged now
  const Baseline* baseline = nullptr;  // --baseline: the figures are compared now
  std::string baseline_file;           // the baseline's path, as report.json names it
  std::optional<gpunet::json> fabric;  // --fabric (topology/fabric.hpp's fabric_json): "What is wrong" reads it
  // The training model's parameters; none: those the report stored (a re-render), else the stated defaults.
  std::optional<training::TrainingParams> training;
  bool baseline_figures = false;  // keep this run's figures as a baseline (--save-baseline, --learn-baseline)
  AnalysisOptions options;
};

// The analysed report, its judgement and its training answer, typed. Every output reads these; the
// report's extra holds what report.json carries of them (analysis, training, verdicts, ...).
struct Analysed {
  Report report;  // every record annotated
  Judgement judgement;              // judged now where an input asked for it, else as the report stored it
  std::optional<training::TrainingResult> training;  // none: nothing to model
  std::optional<Baseline> figures;  // this run's figures (with baseline_figures)
};

Analysed analyse(Report rep, const AnalyseInputs& in = {});

// A stored report as it was analysed when it was written: its judgement and training answer read back
// (stored_judgement, training_result_of), nothing worked out again. For a report analysed elsewhere
// and for tests; `gpunet-bench report` analyses again.
Analysed stored_analysis(Report rep);

}  // namespace gpunet::report
