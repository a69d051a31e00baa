#include "report/render/chart_timeline.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "report/model/json_access.hpp"
#include "report/model/stats.hpp"
#include "report/render/svg_common.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

namespace {

const char* const kTestOrder[] = {"matrix", "neighbours", "one-to-many", "many-to-one"};

size_t test_rank(const std::string& test) {
  for (size_t i = 0; i < std::size(kTestOrder); ++i)
    if (test == kTestOrder[i]) return i;
  return std::size(kTestOrder);
}

std::string flow_test(const Figure& f) {
  const auto it = f.parameters.find("test");
  return it == f.parameters.end() ? "" : it->second;
}

// How deep a flow's worst interval fell: minimum / median (1 = steady).
double steadiness(const std::vector<double>& rates) {
  const double median = percentile(rates, 0.5);
  return median > 0 ? *std::min_element(rates.begin(), rates.end()) / median : 0;
}

TimelinePanel panel_of(const Record& r, const std::string& test) {
  const Figure& f = *r.figure;
  TimelinePanel p;
  p.src = f.subject.host;
  p.dst = f.subject.dst_host;
  p.test = test;
  p.title = p.src + " -> " + p.dst;
  // Strangers turned away at the receiver's listener while the flow ran (tcp suite's record).
  if (const auto strangers = extra_integer(r, "rejected_connections"); strangers && *strangers > 0)
    p.title += " (" + std::to_string(*strangers) + " stranger connection" + (*strangers == 1 ? "" : "s") + " refused meanwhile)";
  p.rates = f.samples;
  p.unit = f.unit;
  p.interval_s = extra_number(r, "interval_s").value_or(0);
  if (f.ceiling && f.ceiling->known && f.ceiling->unit == f.unit) p.ceiling = f.ceiling->value;
  json scratch;
  if (const json* st = extra_at(r, "stability", scratch)) {
    const auto below = jsonx::number(*st, "threshold_Gbps");
    if (below && *below > 0 && f.unit == "Gb/s") p.dip_below = below;
  }
  return p;
}

// The panels of one test's flows (passed, two intervals or more): the `keep` of lowest steadiness, in
// that order (equal ones in file order), when there are more; else all of them, by pair. Only the
// panels shown are built: a matrix of a million flows shows twelve.
std::vector<TimelinePanel> shown_panels(const std::vector<const Record*>& flows, const std::string& test, size_t keep) {
  std::vector<TimelinePanel> out;
  if (flows.size() <= keep) {
    for (const Record* r : flows) out.push_back(panel_of(*r, test));
    std::stable_sort(out.begin(), out.end(),
                     [](const TimelinePanel& a, const TimelinePanel& b) { return std::tie(a.src, a.dst) < std::tie(b.src, b.dst); });
    return out;
  }
  std::vector<std::pair<double, size_t>> order;
  order.reserve(flows.size());
  for (size_t i = 0; i < flows.size(); ++i) order.emplace_back(steadiness(flows[i]->figure->samples), i);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end());
  out.reserve(keep);
  for (size_t i = 0; i < keep; ++i) out.push_back(panel_of(*flows[order[i].second], test));
  return out;
}

}  // namespace

Timelines timeline_charts(const Report& rep) {
  std::map<std::string, std::vector<const Record*>> by_test;
  std::map<std::string, double> interval_of;
  std::optional<double> dip_fraction;
  size_t flows = 0;
  for (const auto& r : rep.results) {
    if (!r.figure || r.figure->metric != "tcp.goodput" || r.figure->subject.kind != SubjectKind::pair) continue;
    const Figure& f = *r.figure;
    const std::string test = flow_test(f);
    if (test == "retest" || r.status != Status::passed) continue;
    ++flows;
    if (f.samples.size() < 2) continue;
    if (const auto dt = extra_number(r, "interval_s"); dt && *dt > 0) interval_of.try_emplace(test, *dt);
    json scratch;
    if (const json* st = dip_fraction ? nullptr : extra_at(r, "stability", scratch)) {
      const auto below = jsonx::number(*st, "threshold_Gbps"), median = jsonx::number(*st, "p50_Gbps");
      if (below && median && *median > 0) dip_fraction = *below / *median;
    }
    by_test[test].push_back(&r);
  }
  Timelines out;
  if (by_test.empty()) {
    if (flows > 0)
      out.omitted.push_back("tcp flow timelines: no flow has two intervals or more (run longer than --tcp-interval, "
                            "or use --duration)");
    return out;
  }
  std::vector<std::string> tests;
  for (const auto& [test, timelines] : by_test) tests.push_back(test);
  std::stable_sort(tests.begin(), tests.end(), [](const std::string& a, const std::string& b) { return test_rank(a) < test_rank(b); });
  for (const auto& test : tests) {
    const auto& timelines = by_test.at(test);
    TimelineGroup g;
    g.test = test;
    g.panels = shown_panels(timelines, test, kTimelinePanels);
    const auto dt = interval_of.find(test);
    g.title = (test.empty() ? std::string("flows") : test + " flows") + " (" + std::to_string(timelines.size()) + ")" +
              (dt == interval_of.end() ? "" : ": goodput per " + svg::tick_number(dt->second) + " s interval");
    if (timelines.size() > kTimelinePanels)
      g.note = "Showing the " + std::to_string(kTimelinePanels) + " of " + std::to_string(timelines.size()) +
               " flows whose lowest interval fell furthest below their median; every flow's timeline is in "
               "report.json (figure.samples).";
    // One y scale per group, so that a slow flow looks slow next to the others.
    double top = 0;
    for (const auto& p : g.panels) {
      top = std::max(top, p.ceiling.value_or(0));
      for (double r : p.rates) top = std::max(top, r);
    }
    for (auto& p : g.panels) p.y_max = top;
    out.groups.push_back(std::move(g));
  }
  out.legend = "Each panel: one flow's goodput per interval; dashed red: the flow's ceiling; shaded: dips, intervals "
               "below " +
               (dip_fraction ? format_percent(*dip_fraction) + " of the flow's median (--tcp-dip)"
                             : std::string("the tcp suite's dip threshold (--tcp-dip)")) +
               ".";
  return out;
}

}  // namespace gpunet::report
