#include "bench/core/plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/core/suite.hpp"

namespace gpunet::bench {

std::string duration_text(double seconds) {
  const long s = std::lround(std::max(seconds, 0.0));
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%lds", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  return buf;
}

std::string plan_line(const std::vector<std::pair<std::string, PlanPart>>& parts) {
  std::string shown, unknown;
  double total = 0;
  for (const auto& [suite, p] : parts) {
    if (p.seconds >= 0) {
      shown += (shown.empty() ? "" : ", ") + suite + " " + p.what + " = " + duration_text(p.seconds);
      total += p.seconds;
    }
    const std::string missing = p.seconds < 0 ? suite : p.left_out.empty() ? "" : suite + " " + p.left_out;
    if (!missing.empty()) unknown += (unknown.empty() ? "" : ", ") + missing;
  }
  return "# plan: " + (shown.empty() ? std::string("no suite estimated") : shown) + "; estimated " + duration_text(total) +
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
