#include "report/analysed/analyse.hpp"

#include <utility>

#include "report/analysis/fabric_view.hpp"
#include "report/judge/host_load.hpp"
#include "report/judge/verdicts_outputs.hpp"
#include "report/model/json_access.hpp"
#include "report/training/training_section.hpp"

namespace gpunet::report {

Analysed analyse(Report rep, const AnalyseInputs& in) {
  Analysed a;
  Judgement& j = a.judgement;
  if (in.fabric) rep.extra["fabric"] = *in.fabric;  // as a stored report carries it
  analyze(rep, in.options);  // ceilings and efficiencies first: the training model and the verdicts read them
  j.fabric = fabric_location(rep);
  a.training = training::training_answer(rep, in.training.value_or(training::stored_params(rep)));
  if (a.training) {
    rep.extra["training"] = *a.training;  // for report.json
  } else if (rep.extra.is_object()) {
    rep.extra.erase("training");  // a stored section this analysis did not reach again
  }
  if (in.spec) {
    j.verdicts = evaluate(rep, *in.spec);
    attach_verdicts(rep, *in.spec, j.verdicts);  // replaces a stored contract's
  } else {
    j.verdicts = verdicts_of(rep);
  }
  if (in.baseline_figures) a.figures = make_baseline(rep, in.baseline ? in.baseline->rule : CompareRule{}, in.baseline);
  if (in.baseline) {
    // What the comparison reads of the run's figures, freed as they are judged (a million at 1,024 hosts).
    auto cmp = compare(*in.baseline, now_figures(rep));
    discount_busy_hosts(cmp, busy_hosts(rep));  // a busy host is not a slower network
    attach_comparison(rep, in.baseline_file, in.baseline->rule, cmp);  // replaces a stored comparison
    j.comparison = std::move(cmp);
  } else if (jsonx::object_at(rep.extra, "baseline")) {
    j.comparison = comparison_of(rep);
  }
  j.verdict = run_verdict_of(rep, j.verdicts, j.comparison);  // the typed judgement, not read back
  a.report = std::move(rep);
  return a;
}

Analysed stored_analysis(Report rep) {
  Analysed a;
  a.judgement = stored_judgement(rep);
  a.training = training::training_result_of(rep);
  a.report = std::move(rep);
  return a;
}

}  // namespace gpunet::report
