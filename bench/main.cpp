#include <cstdio>
#include <iostream>
#include <new>

#include "bench/core/app.hpp"
#include "bench/core/evidence_step.hpp"
#include "bench/core/input_check.hpp"
#include "bench/core/options.hpp"
#include "bench/core/plan.hpp"
#include "bench/core/report_command.hpp"
#include "bench/core/time_budget.hpp"
#include "bench/suites/suite_list.hpp"
#include "bench/suites/topo/suite.hpp"
#include "common/strings.hpp"
#include "report/history/history_command.hpp"

namespace {

using namespace gpunet;

// What the command line asks for: help or an error, an evidence bundle checked, an input check, the run
// history, a stored report judged again (or recorded into a history) or re-rendered (then its evidence
// bundle), a topology file analysed, or a run of the suites of the list.
int run(int argc, char** argv) {
  const auto parsed = bench::parse_options({argv, argv + argc}, bench::suite_list());
  if (!parsed.config) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << "\n";
    return parsed.exit_code;
  }
  const auto& cfg = *parsed.config;
  if (!cfg.verify_input.empty()) return bench::verify_command(cfg, std::cout, std::cerr);
  if (cfg.check_inputs) {
    const int code = bench::check_inputs(cfg, std::cout, std::cerr);
    // The plan a run of these options would print, for --nodes nodes of one rank each (no MPI here).
    if (code != 0) return code;
    const auto fit = bench::fit_time_budget(cfg, bench::suite_list(), cfg.plan_nodes, cfg.plan_nodes);
    std::cout << bench::run_plan_line(fit.cfg, bench::suite_list(), cfg.plan_nodes, cfg.plan_nodes) << bench::budget_text(fit)
              << " for " << cfg.plan_nodes << " node(s), one rank each\n";
    if (fit.met) return 0;
    std::cerr << bench::budget_unmet_line(fit) << "\n";
    return 2;
  }
  if (cfg.history.action != report::history::HistoryRequest::Action::none)
    return report::history::run_history_command(cfg.history, std::cout, std::cerr);
  if (!cfg.report_input.empty()) return bench::report_command(cfg, std::cout, std::cerr);
  if (!cfg.topology_xml.empty()) return bench::run_topology_file(cfg);
  return bench::run_benchmark(cfg, bench::suite_list(), argc, argv);
}

}  // namespace

// Whatever escapes is one line and exit code 3 (runtime failure), never an abort.
int main(int argc, char** argv) {
  // stderr goes out a line at a time: mpirun forwards rank 0's stdout and stderr apart, and a message
  // written in parts could land in the middle of a line of the other stream.
  std::setvbuf(stderr, nullptr, _IOLBF, BUFSIZ);
  std::cerr.unsetf(std::ios_base::unitbuf);
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "gpunet-bench: error: out of memory (lower -e, --scaling-size, --node-size or --pcie-size, "
                 "or run fewer ranks per node)\n";
  } catch (const std::exception& e) {
    std::cerr << "gpunet-bench: error: " << gpunet::first_line(e.what()) << "\n";
  }
  return 3;
}
