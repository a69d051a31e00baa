#include "report/judge/verdicts_congestion.hpp"

#include <cstdio>

#include "report/analysis/congestion.hpp"

namespace gpunet::report {

namespace {

std::string cif_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string raw_text(double v, const std::string& unit) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g %s", v, unit.c_str());
  return buf;
}

// "node-1 -> node-3 bandwidth: CIF 3.41 (isolated 0.094 Gb/s, congested 0.0276 Gb/s)"
std::string victim_text(const CongestionFigure& c) {
  const auto* m = congestion_measure(c.measure);
  return c.victim + " " + (m ? m->label : c.measure) + ": CIF " + cif_text(c.cif.value_or(0)) + " (isolated " +
         raw_text(c.isolated, c.unit) + ", congested " + raw_text(c.congested, c.unit) + ")";
}

std::string skipped_reason(const Report& report) {
  for (const auto& r : report.results)
    if (record_kind(r) == RecordKind::tcp_congestion && r.status == Status::skipped) return r.reason;
  return "the run has no congestion figures: run --tcp-tests congestion on 4 or more nodes";
}

}  // namespace

Verdict judge_congestion(const Report& report, const CongestionPromise& promise) {
  const std::string limit = "CIF <= " + cif_text(promise.max_cif);
  Verdict v{"congestion", VerdictStatus::skip, "-", limit, "", {}, {}};
  std::vector<std::string> failed, over;
  const CongestionFigure* worst = nullptr;
  size_t judged = 0;
  const auto figures = congestion_figures(report);
  for (const auto& c : figures) {
    if (c.overall) continue;
    const auto* m = congestion_measure(c.measure);
    const std::string what = c.victim + " " + (m ? m->label : c.measure);
    if (c.record->status != Status::passed || !c.cif) {
      failed.push_back(what + ": " + (c.record->reason.empty() ? "not measured" : c.record->reason));
      continue;
    }
    ++judged;
    if (!worst || *c.cif > *worst->cif) worst = &c;
    if (*c.cif > promise.max_cif) over.push_back(victim_text(c));
  }
  if (!worst && failed.empty()) {
    v.reason = skipped_reason(report);
    return v;
  }
  if (worst) v.measured = "worst CIF " + cif_text(*worst->cif) + " (" + worst->victim + ", " + worst->measure + ")";
  const auto joined = [](const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items) s += (s.empty() ? "" : "; ") + i;
    return s;
  };
  if (!over.empty() || !failed.empty()) {
    v.status = VerdictStatus::fail;
    v.reason = over.empty() ? "" : "over the bound: " + joined(over);
    if (!failed.empty()) v.reason += std::string(v.reason.empty() ? "" : "; ") + "not delivered: " + joined(failed);
    return v;
  }
  v.status = VerdictStatus::pass;
  v.reason = std::to_string(judged) + " victim figures within the bound; the worst: " + victim_text(*worst);
  return v;
}

}  // namespace gpunet::report
