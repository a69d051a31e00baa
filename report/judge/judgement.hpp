// What a run was judged to be, typed: the contract's verdicts, the baseline comparison and the one
// run verdict. report::analyse (report/analysed/analyse.hpp) makes it and the renderers take it, so no
// output parses a judgement back out of report.extra; report.json stores it for a later re-render
// (report/judge/verdicts_outputs.hpp's stored_judgement reads it back).
#pragma once

#include <optional>
#include <vector>

#include "report/judge/baseline.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/judge/verdicts.hpp"

namespace gpunet::report {

struct Judgement {
  std::vector<Verdict> verdicts;                 // the contract's; none without a spec
  std::optional<BaselineComparison> comparison;  // none without a baseline
  RunVerdict verdict;                            // the one verdict: exit code, banner, first line
};

}  // namespace gpunet::report
