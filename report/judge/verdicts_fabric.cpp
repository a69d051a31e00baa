#include "report/judge/verdicts_fabric.hpp"

#include <algorithm>
#include <cstdio>

#include "report/analysis/oversubscription.hpp"

namespace gpunet::report {

namespace {

std::string ratio_text(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f:1", r);
  return buf;
}

std::string uplink_list(const std::vector<const UplinkFigure*>& ups, bool with_figures) {
  std::string out;
  for (const auto* u : ups)
    out += (out.empty() ? "" : ", ") +
           (with_figures ? oversubscription_text(u->leaf, u->parent, u->o) : u->leaf + " ↔ " + u->parent);
  return out;
}

}  // namespace

Verdict judge_fabric(const Report& report, const FabricPromise& p) {
  Verdict v;
  v.promise = p.non_blocking ? "fabric non_blocking" : "fabric max_oversubscription";
  v.limit = "<= " + ratio_text(p.max_oversubscription) + (p.non_blocking ? " (non-blocking)" : "");
  v.measured = "-";
  for (const auto& r : report.results) {
    if (record_kind(r) != RecordKind::tcp_fabric) continue;
    if (r.status == Status::failed || r.status == Status::timed_out) {
      v.status = VerdictStatus::fail;
      v.reason = "the fabric test " + (r.variant.empty() ? std::string() : "of " + r.variant + " ") +
                 "did not deliver its figure: " + r.reason;
      return v;
    }
  }
  const auto ups = uplink_figures(report);
  if (ups.empty()) {
    v.status = VerdictStatus::skip;
    const auto skipped = std::find_if(report.results.begin(), report.results.end(), [](const Record& r) {
      return record_kind(r) == RecordKind::tcp_fabric && r.status == Status::skipped;
    });
    v.reason = skipped != report.results.end()
                   ? "the fabric test was skipped: " + skipped->reason
                   : "not judged: the run has no fabric figures (run --tcp-tests ...,fabric with --fabric FILE)";
    return v;
  }
  std::vector<const UplinkFigure*> over;
  const UplinkFigure* worst = &ups[0];
  for (const auto& u : ups) {
    if (u.o.ratio > worst->o.ratio) worst = &u;
    if (u.o.ratio > p.max_oversubscription) over.push_back(&u);
  }
  v.measured = worst->leaf + " ↔ " + worst->parent + " " + ratio_text(worst->o.ratio);
  const std::string n = std::to_string(ups.size());
  if (over.empty()) {
    v.status = VerdictStatus::pass;
    v.reason = "every uplink (" + n + ") at or below " + ratio_text(p.max_oversubscription) + "; worst " +
               oversubscription_text(worst->leaf, worst->parent, worst->o);
    return v;
  }
  v.status = VerdictStatus::fail;
  v.reason = std::to_string(over.size()) + " of " + n + " uplinks above " + ratio_text(p.max_oversubscription) + ": " +
             uplink_list(over, true);
  v.culprits = {"the uplink" + std::string(over.size() > 1 ? "s " : " ") + uplink_list(over, false) +
                ": the nodes below them send more than the uplink carries, not a node"};
  return v;
}

}  // namespace gpunet::report
