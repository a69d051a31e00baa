// The run's plan before anything is measured: each suite's estimate of its own time (Suite::plan),
// summed into one console line, `# plan: <parts>, estimated <D>`. An estimate, and said to be one:
// what a suite cannot tell in advance (re-tests decided by the results, an adaptive iteration count
// beyond its budget, GPU work) is named as not estimated. Pure functions.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "bench/core/config.hpp"

namespace gpunet::bench {

struct Suite;

// One suite's estimate.
struct PlanPart {
  std::string what;         // its steps and their costs, e.g. "matrix 2x3 rounds x (2s + 0.2s)"
  double seconds = -1;      // < 0: not estimated
  std::string left_out;     // what the estimate leaves out ("" = nothing)
  double most_left_out_s = 0;  // the most what is left out may take, where that is bounded (re-tests)
};


// A sweep's part: `points` timed points of about --budget each, "<what> x <budget>s budget" (pure).
PlanPart budgeted_points(const std::string& what, size_t points, double budget_s);

// "# plan: tcp matrix 2x3 rounds x (2s + 0.2s) = 13s, mpi ...; estimated 1m05s (an estimate; not
// estimated: topo, tcp re-tests of suspects)" for (suite name, part) in run order (pure).
std::string plan_line(const std::vector<std::pair<std::string, PlanPart>>& parts);

// The plan of the suites cfg names, for `nodes` nodes of `ranks` ranks in all (pure).
std::string run_plan_line(const Config& cfg, std::span<const Suite> suites, int nodes, int ranks);

}  // namespace gpunet::bench
