// --time-budget D: the plan (bench/core/plan.hpp) made to fit a wall-time budget before anything is
// measured. Cheaper choices are taken one after another, each only while the plan is still over:
// --tcp-time down to 1 s, the matrix sampled (--tcp-pairs random:K, the largest K of 256 down to 3 that fits), --tcp-time
// 0.5 s, the mpi sweep's sizes up to 1 MiB, --tcp-pairs random:2, one re-test round. What counts is
// the estimate plus the most the matrix's re-tests may take (they are decided by the results). Every
// rank reaches the same choices: they depend on the options and the node and rank counts only. Pure.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bench/core/config.hpp"

namespace gpunet::bench {

struct Suite;

// "30m", "1h30m", "4m10s", "90s", "90" (seconds), "1.5h" as seconds; nullopt otherwise or when not > 0.
std::optional<double> parse_duration_text(const std::string& text);

struct BudgetFit {
  Config cfg;                       // the options the run goes with
  std::vector<std::string> gave_up;  // each choice taken, e.g. "--tcp-time 1s (was 2s)"
  double worst_s = 0;               // the estimate plus the re-tests' most, after the choices
  bool met = true;                  // false: even the cheapest plan is over the budget
};

// cfg as given when it has no --time-budget or its plan fits; else the cheaper options.
BudgetFit fit_time_budget(const Config& cfg, std::span<const Suite> suites, int nodes, int ranks);

// What the plan line adds for a budget: "; --time-budget 30m: fits as given" or
// "; --time-budget 30m: gave up --tcp-time 1s (was 2s), ..." or the budget that cannot be met ("" without one).
std::string budget_text(const BudgetFit& fit);

// The one line --check prints (exit 2) for a budget that the cheapest plan does not meet.
std::string budget_unmet_line(const BudgetFit& fit);

}  // namespace gpunet::bench
