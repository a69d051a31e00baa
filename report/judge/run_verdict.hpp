// The run's one verdict: what the records, the contract (--spec), the baseline comparison and the
// analysis say together, with the reasons. The exit code, report.md's first line, report.html's
// banner, report.json (extra.run_verdict), junit.xml and metrics.prom all read this one value, so
// they cannot disagree.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/judge/baseline.hpp"
#include "report/model/record.hpp"
#include "report/judge/verdicts.hpp"

namespace gpunet::report {

// Most severe last: the verdict is the most severe outcome any input gives.
enum class RunOutcome { pass, warn, incomplete, fail };
std::string to_string(RunOutcome o);  // "PASS", "WARN", "INCOMPLETE", "FAIL"

struct RunVerdict {
  RunOutcome outcome = RunOutcome::pass;
  std::vector<std::string> reasons;  // one short sentence per input that has something to say, severe first
  int exit_code() const;             // FAIL 1, INCOMPLETE 4 (kIncompleteExitCode), else 0
};

// What the analysis counted (extra.analysis.counts).
struct RecordCounts {
  int records = 0, failed = 0, timed_out = 0, wrong = 0, below = 0, skipped = 0;
  double threshold = 0.8;
};

struct RunVerdictInputs {
  std::optional<RecordCounts> records;          // absent: the report was not analysed
  std::string contract;                         // the spec's name or file; "" when there is no spec
  std::vector<Verdict> promises;                // the spec's verdicts
  const BaselineComparison* baseline = nullptr; // none when there was no --baseline; read, not copied
  std::string busy_hosts;                       // report/judge/host_load.hpp's busy_hosts_text; "" when none
};

// Pure: the verdict and its reasons from the inputs.
RunVerdict decide_run_verdict(const RunVerdictInputs& in);

// With the promises and the comparison at hand (report/analysed/analyse.hpp; a stored report's:
// report/judge/verdicts_outputs.hpp's stored_judgement), the rest (counts, contract name, busy hosts)
// from the report.
RunVerdict run_verdict_of(const Report& rep, std::vector<Verdict> promises, const std::optional<BaselineComparison>& baseline);

// "# Verdict: FAIL\n#   contract ...: 1 of 5 promises failed (...)\n...": the console's last lines.
std::string run_verdict_console(const RunVerdict& v);

// {"verdict": "FAIL", "reasons": [...], "exit_code": 1}, as report.json's extra.run_verdict.
gpunet::json to_json(const RunVerdict& v);

}  // namespace gpunet::report
