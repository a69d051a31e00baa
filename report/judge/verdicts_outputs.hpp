// The acceptance verdicts (report.extra.verdicts) and the baseline comparison (report.extra.baseline)
// as sections of report.md, report.html and junit.xml, read back from the report so that offline
// re-rendering shows them too. Each function returns "" (or zero counts) when the report has neither.
#pragma once

#include <string>
#include <vector>

#include "report/judge/baseline.hpp"
#include "report/model/record.hpp"
#include "report/judge/verdicts.hpp"

namespace gpunet::report {

// The tables stored in a report; malformed entries are left out.
std::vector<Verdict> verdicts_of(const Report& rep);
BaselineComparison comparison_of(const Report& rep);

std::string acceptance_markdown(const Report& rep);  // "## Acceptance" and "## Baseline" sections
std::string acceptance_html(const Report& rep);      // <h2> + <table> for each

// junit.xml: a testsuite "acceptance" (FAIL -> failure, SKIP -> skipped) and a testsuite "baseline"
// (SLOWER -> failure, UNCERTAIN -> skipped), and their counts for the <testsuites> totals.
struct JunitCounts {
  int tests = 0, failures = 0, skipped = 0;
};
struct AcceptanceJunit {
  std::string xml;     // the two <testsuite> elements ("" when the report has neither table)
  JunitCounts counts;  // what they add to the <testsuites> totals
};
AcceptanceJunit acceptance_junit(const Report& rep);

}  // namespace gpunet::report
