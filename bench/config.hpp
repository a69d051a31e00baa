// The immutable run configuration. Built once from the command line by parse_options() and
// passed by const reference everywhere; nothing changes it after start-up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpunet::bench {

enum class Reduction { max, mean, min };  // how per-iteration times combine across ranks

struct Config {
  std::vector<std::string> argv;

  // What to run.
  std::vector<std::string> suites;   // in run order
  std::vector<std::string> collectives;  // mpi/nccl collectives to sweep

  // nccl-tests compatible sweep flags.
  int64_t min_bytes = 1024;
  int64_t max_bytes = 64LL << 20;
  double step_factor = 4.0;
  int64_t step_bytes = 0;   // -i: additive step; 0 = use step_factor
  int iters = 10;           // minimum timed iterations per size
  int warmup_iters = 2;
  int check = 1;            // verify data (0 = off)
  std::string dtype = "float";
  std::string op = "sum";

  // Runner.
  double budget_s = 0.1;    // per-size time budget for the adaptive iteration count
  int max_iters = 10000;
  Reduction reduction = Reduction::max;
  double timeout_s = 120;   // bound on any single step (watchdog)

  // Output.
  std::string output_dir = "gpunet-report";
  bool quiet = false;

  // Acceptance and regression (issue #7): empty = not asked for.
  std::string spec_path;           // --spec FILE: judge the run against an acceptance spec
  std::string baseline_path;       // --baseline FILE: compare with a stored baseline
  std::string save_baseline_path;  // --save-baseline FILE: store this run as a baseline

  // Subcommands / modes.
  std::string report_input;      // `gpunet-bench report PATH`: re-render offline
};

std::string to_string(Reduction r);

}  // namespace gpunet::bench
