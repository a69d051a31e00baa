// The acceptance and regression end of a run (--spec, --baseline, --save-baseline): the inputs are
// checked at rank 0 before anything is measured, and judged at rank 0 once the report is complete.
#pragma once

#include <iosfwd>
#include <optional>

#include "common/json.hpp"

#include "bench/core/config.hpp"
#include "report/analysed/analyse.hpp"
#include "report/judge/baseline.hpp"
#include "report/model/record.hpp"
#include "report/judge/spec.hpp"
#include "topology/fabric.hpp"

namespace gpunet::bench {

struct Acceptance {
  std::optional<report::Spec> spec;
  std::optional<report::Baseline> baseline;
  std::optional<topo::Fabric> fabric;  // --fabric, as read at the start; the suites that need it read it here
};

// Loads --spec, --baseline and --fabric, and checks that --save-baseline can be written. On a problem, writes
// one line to `err` and throws std::invalid_argument (exit code 2).
Acceptance load_acceptance(const Config& cfg, std::ostream& err);

// Frees the loaded baseline, read by nothing after the judgement, and gives the memory back before the
// outputs are written (at 1,024 hosts a million figures, 0.7 GB).
void release_baseline(Acceptance& acc);

// What report::analyse takes from the options and the loaded acceptance files (a run's and `report`'s).
report::AnalyseInputs analyse_inputs(const Config& cfg, const Acceptance& acc);

// Prints the verdicts and the baseline comparison of `a` to `out`, then "What is wrong", and saves the
// baselines asked for (--save-baseline, --learn-baseline). Returns 2 when one cannot be saved, else 0.
int print_judgement(const Config& cfg, const Acceptance& acc, const report::Analysed& a, std::ostream& out, std::ostream& err);

// The run's exit code: 2 when print_judgement could not save a baseline, else the run verdict's
// (1 FAIL: a failed record, promise or regression; 4 INCOMPLETE; else 0), the one report.md shows.
int run_exit_code(const report::Analysed& a, int judged);

// `gpunet-bench report PATH --spec ... --baseline ... --save-baseline ...`: judges a stored run without
// measuring again, writes its outputs, and returns the exit code the live run would have had.
int rejudge_stored_report(const Config& cfg, std::ostream& out, std::ostream& err);

// "gpunet-bench report: wrote DIR/{report.json,...}": where a re-render put its outputs.
std::string rendered_line(const std::string& dir);

}  // namespace gpunet::bench
