#include "report/document/suite_times.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/model/json_access.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

// 0.4s below ten seconds, else as format_duration: 35s, 4m10s, 1h02m.
std::string seconds_text(double s) {
  if (s >= 10) return format_duration(s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", std::max(s, 0.0));
  return buf;
}

}  // namespace

void set_suite_times(Report& rep, const std::vector<SuiteTime>& times) {
  json out = json::array();
  for (const auto& t : times) {
    json j{{"suite", t.suite}, {"actual_s", t.actual_s}};
    if (t.planned_s >= 0) j["planned_s"] = t.planned_s;
    out.push_back(std::move(j));
  }
  rep.extra["suite_times"] = std::move(out);
}

std::vector<SuiteTime> suite_times_of(const Report& rep) {
  std::vector<SuiteTime> out;
  const json* all = jsonx::array_at(rep.extra, "suite_times");
  if (!all) return out;
  for (const auto& j : *all) {
    const auto suite = jsonx::string(j, "suite");
    const auto actual = jsonx::number(j, "actual_s");
    if (!suite || !actual || !std::isfinite(*actual) || *actual < 0) continue;
    const auto planned = jsonx::number(j, "planned_s");
    out.push_back({*suite, planned && std::isfinite(*planned) && *planned >= 0 ? *planned : -1, *actual});
  }
  return out;
}

std::string suite_times_text(const std::vector<SuiteTime>& times) {
  std::string out;
  for (const auto& t : times) {
    out += (out.empty() ? "" : "; ") + t.suite;
    if (t.planned_s >= 0) out += " planned " + seconds_text(t.planned_s) + ", took " + seconds_text(t.actual_s);
    else out += " took " + seconds_text(t.actual_s) + " (not estimated)";
  }
  return out;
}

}  // namespace gpunet::report
