#include "bench/core/time_budget.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>

#include "bench/core/cli_float.hpp"
#include "bench/core/plan.hpp"
#include "bench/core/sizes.hpp"
#include "bench/core/suite.hpp"
#include "common/strings.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::bench {

std::optional<double> parse_duration_text(const std::string& text) {
  if (const auto plain = parse_finite(text)) return *plain > 0 ? plain : std::nullopt;
  double total = 0;
  size_t i = 0;
  std::string seen;  // units in the order given: h before m before s, each once
  while (i < text.size()) {
    size_t j = i;
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.')) ++j;
    if (j == i || j == text.size()) return std::nullopt;
    const auto number = parse_finite(text.substr(i, j - i));
    const std::string units = "hms";
    const size_t unit = units.find(text[j]);
    if (!number || unit == std::string::npos || (!seen.empty() && units.find(seen.back()) >= unit)) return std::nullopt;
    seen += text[j];
    total += *number * (unit == 0 ? 3600 : unit == 1 ? 60 : 1);
    i = j + 1;
  }
  if (!(total > 0) || !std::isfinite(total)) return std::nullopt;
  return total;
}

namespace {

// The estimate plus the most the re-tests may take; with the seed fixed, so that every rank (each
// with a seed of its own until rank 0's is broadcast) counts the same rounds.
double budget_worst_s(const Config& c, std::span<const Suite> suites, int nodes, int ranks) {
  Config fixed = c;
  fixed.tcp.pairs_seed = 0;
  double s = 0;
  for (const auto& name : c.suites) {
    const Suite* suite = find_suite(suites, name);
    if (!suite || !suite->plan) continue;
    const PlanPart p = suite->plan(fixed, nodes, ranks);
    s += std::max(0.0, p.seconds) + p.most_left_out_s;
  }
  return s;
}

// One cheaper choice: changes c and says how ("" when it does not apply to c).
using BudgetStep = std::function<std::string(Config&)>;

BudgetStep shorter_flows(double to_s) {
  return [to_s](Config& c) -> std::string {
    if (c.tcp.time_s <= to_s) return "";
    const std::string was = format_float(c.tcp.time_s);
    c.tcp.time_s = to_s;
    return "--tcp-time " + format_float(to_s) + " (was " + was + ")";
  };
}

BudgetStep sampled_pairs(int k) {
  return [k](Config& c) -> std::string {
    if (c.tcp.pairs == "ring" || (c.tcp.pairs == "random" && c.tcp.pairs_k <= k)) return "";
    const std::string was = c.tcp.pairs == "random" ? "random:" + std::to_string(c.tcp.pairs_k) : c.tcp.pairs;
    c.tcp.pairs = "random";
    c.tcp.pairs_k = k;
    return "--tcp-pairs random:" + std::to_string(k) + " (was " + was + ")";
  };
}

BudgetStep smaller_sweep(int64_t to_bytes) {
  return [to_bytes](Config& c) -> std::string {
    if (c.max_bytes <= to_bytes || c.min_bytes > to_bytes) return "";
    const std::string was = format_size(c.max_bytes);
    c.max_bytes = to_bytes;
    return "-e " + format_size(to_bytes) + " (was " + was + ")";
  };
}

BudgetStep fewer_retests(int to_rounds) {
  return [to_rounds](Config& c) -> std::string {
    if (c.tcp.retest_rounds <= to_rounds) return "";
    const std::string was = std::to_string(c.tcp.retest_rounds);
    c.tcp.retest_rounds = to_rounds;
    return "--tcp-retest-rounds " + std::to_string(to_rounds) + " (was " + was + ")";
  };
}

// Takes `step` when the plan is over the budget and the step makes it cheaper.
bool take_if_cheaper(BudgetFit& fit, const BudgetStep& step, std::span<const Suite> suites, int nodes, int ranks) {
  if (fit.worst_s <= fit.cfg.time_budget_s) return false;
  Config tried = fit.cfg;
  const std::string what = step(tried);
  if (what.empty()) return false;
  const double worst = budget_worst_s(tried, suites, nodes, ranks);
  if (worst >= fit.worst_s) return false;
  fit.cfg = std::move(tried);
  fit.worst_s = worst;
  fit.gave_up.push_back(what);
  return true;
}

}  // namespace

BudgetFit fit_time_budget(const Config& cfg, std::span<const Suite> suites, int nodes, int ranks) {
  BudgetFit fit{cfg, {}, budget_worst_s(cfg, suites, nodes, ranks), true};
  if (cfg.time_budget_s <= 0) return fit;
  take_if_cheaper(fit, shorter_flows(1.0), suites, nodes, ranks);
  // The largest sample of partners that fits; the smallest when none does.
  for (const int k : {256, 128, 64, 32, 16, 8, 4, 3}) {
    Config tried = fit.cfg;
    if (sampled_pairs(k)(tried).empty() || fit.worst_s <= cfg.time_budget_s) continue;
    if (budget_worst_s(tried, suites, nodes, ranks) <= cfg.time_budget_s || k == 3)
      if (take_if_cheaper(fit, sampled_pairs(k), suites, nodes, ranks)) break;
  }
  for (const auto& step : {shorter_flows(0.5), smaller_sweep(1 << 20), sampled_pairs(2), fewer_retests(1)})
    take_if_cheaper(fit, step, suites, nodes, ranks);
  fit.met = fit.worst_s <= cfg.time_budget_s;
  return fit;
}

std::string budget_text(const BudgetFit& fit) {
  if (fit.cfg.time_budget_s <= 0) return "";
  const std::string budget = "--time-budget " + report::format_duration(fit.cfg.time_budget_s);
  const std::string most = "at most " + report::format_duration(fit.worst_s) + " with re-tests";
  const std::string gave = fit.gave_up.empty() ? "" : "gave up " + join(fit.gave_up, ", ");
  if (!fit.met)
    return "; " + budget + " cannot be met: the cheapest plan takes " + most + (gave.empty() ? "" : " (" + gave + ")");
  return "; " + budget + ": " + (gave.empty() ? "fits as given" : gave) + " (" + most + ")";
}

std::string budget_unmet_line(const BudgetFit& fit) {
  return "gpunet-bench: error: --time-budget " + report::format_duration(fit.cfg.time_budget_s) +
         " cannot be met: the cheapest plan (" + (fit.gave_up.empty() ? "the options as given" : join(fit.gave_up, ", ")) +
         ") takes up to " + report::format_duration(fit.worst_s) + "; give a larger --time-budget or fewer --suites";
}

}  // namespace gpunet::bench
