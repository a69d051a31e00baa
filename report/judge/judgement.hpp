// What a run was judged to be, typed: the contract's verdicts, the baseline comparison and the one
// run verdict. report::analyse (report/analysed/analyse.hpp) makes it and the renderers take it, so no
// output parses a judgement back out of report.extra; report.json stores it for a later re-render
// (report/judge/verdicts_outputs.hpp's stored_judgement reads it back).
#pragma once

#include <optional>
#include <vector>

#include "report/analysis/link_locate.hpp"
#include "report/judge/baseline.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/judge/verdicts.hpp"

namespace gpunet::report {

struct Judgement {
  std::vector<Verdict> verdicts;                 // the contract's; none without a spec
  std::optional<BaselineComparison> comparison;  // none without a baseline
  RunVerdict verdict;                            // the one verdict: exit code, banner, first line
  // The fewest fabric links that explain the matrix's slow pairs (report/analysis/fabric_view.hpp's
  // fabric_location; nothing slow without a fabric): worked out once, read by "What is wrong" and the
  // fabric picture.
  LinkLocation fabric;
};

}  // namespace gpunet::report
