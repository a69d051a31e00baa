// The acceptance verdicts and the baseline comparison as sections of report.md, report.html and
// junit.xml, from the run's judgement (report/judge/judgement.hpp); and the reader of the two tables a
// stored report carries (report.extra.verdicts, report.extra.baseline), which stored_judgement uses.
// Each section is "" (or zero counts) when the judgement has neither.
#pragma once

#include <string>
#include <vector>

#include "report/judge/baseline.hpp"
#include "report/judge/judgement.hpp"
#include "report/model/record.hpp"
#include "report/judge/verdicts.hpp"

namespace gpunet::report {

// The tables stored in a report; malformed entries are left out.
std::vector<Verdict> verdicts_of(const Report& rep);
BaselineComparison comparison_of(const Report& rep);
// The judgement a report stored, as analyse reads it when no input replaces it; also the shorthand of
// tests that build an analysed report by hand.
Judgement stored_judgement(const Report& rep);

// What the Acceptance and Baseline sections are titled by: the spec's name (else its file) and the
// baseline's file, as the report stored them.
std::string spec_title(const Report& rep);
std::string baseline_file(const Report& rep);

// junit.xml: a testsuite "acceptance" (FAIL -> failure, SKIP -> skipped) and a testsuite "baseline"
// (SLOWER -> failure, UNCERTAIN -> skipped), and their counts for the <testsuites> totals.
struct JunitCounts {
  int tests = 0, failures = 0, skipped = 0;
};
struct AcceptanceJunit {
  std::string xml;     // the two <testsuite> elements ("" when the report has neither table)
  JunitCounts counts;  // what they add to the <testsuites> totals
};
AcceptanceJunit acceptance_junit(const Judgement& j);

}  // namespace gpunet::report
