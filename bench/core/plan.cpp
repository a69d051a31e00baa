#include "bench/core/plan.hpp"

#include <algorithm>
#include <cstdio>

#include "bench/core/suite.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::bench {

PlanPart budgeted_points(const std::string& what, size_t points, double budget_s) {
  char budget[32];
  std::snprintf(budget, sizeof budget, "%gs", budget_s);
  PlanPart p;
  p.what = what + " x " + budget + " budget";
  p.seconds = static_cast<double>(points) * budget_s;
  return p;
}

std::string plan_line(const std::vector<std::pair<std::string, PlanPart>>& parts) {
  std::string shown, unknown;
  double total = 0;
  for (const auto& [suite, p] : parts) {
    if (p.seconds >= 0) {
      shown += (shown.empty() ? "" : ", ") + suite + " " + p.what + " = " + report::format_duration(p.seconds);
      total += p.seconds;
    }
    const std::string missing = p.seconds < 0 ? suite : p.left_out.empty() ? "" : suite + " " + p.left_out;
    if (!missing.empty()) unknown += (unknown.empty() ? "" : ", ") + missing;
  }
  return "# plan: " + (shown.empty() ? std::string("no suite estimated") : shown) + "; estimated " + report::format_duration(total) +
         " (an estimate, start-up excluded" + (unknown.empty() ? "" : "; not estimated: " + unknown) + ")";
}

std::string run_plan_line(const Config& cfg, std::span<const Suite> suites, int nodes, int ranks) {
  std::vector<std::pair<std::string, PlanPart>> parts;
  for (const auto& name : cfg.suites) {
    const Suite* s = find_suite(suites, name);
    parts.emplace_back(name, s && s->plan ? s->plan(cfg, nodes, ranks) : PlanPart{});
  }
  return plan_line(parts);
}

}  // namespace gpunet::bench
