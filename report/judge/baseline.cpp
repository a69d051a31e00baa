// Baselines made of a run (the figures a comparison reads of it too), and a figure's run-to-run spread.
// The file: baseline_file.cpp.
#include "report/judge/baseline.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "report/judge/baseline_stats.hpp"
#include "report/judge/figure_select.hpp"
#include "report/judge/verdicts_facts.hpp"
#include "report/model/json_access.hpp"
#include "report/model/stats.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

BaselineFigure from_fact(const FigureFact& f) {
  BaselineFigure b;
  b.suite = f.suite, b.test = f.test, b.kind = f.kind, b.metric = f.metric, b.unit = f.unit;
  b.subject = subject_label(f.subject);
  b.hosts = subject_hosts(f.subject);
  b.higher_is_better = f.higher_is_better;
  b.value = *f.value;
  b.min = f.higher_is_better ? 0 : f.fastest;
  b.samples = quantile_summary(f.samples, kMaxStoredSamples);
  b.samples_total = std::max<int64_t>(f.samples_total, static_cast<int64_t>(f.samples.size()));
  b.samples_from = f.samples.empty() ? (f.samples_total > 0 ? "summary" : "") : f.samples_from;
  b.rail = f.rail;
  return b;
}

// The directed pairs whose re-test passed, by the key their matrix figure has: a passed re-test
// record the suite did not confirm slow (extra.confirmed false).
std::map<std::string, FigureFact> clean_retests(const Report& report) {
  std::map<std::string, FigureFact> out;
  for (const auto& r : report.results) {
    if (!keeps_baseline_figure(r) || r.variant != "retest" || jsonx::boolean(r.extra, "confirmed").value_or(true)) continue;
    FigureFact f = figure_fact_of(r);  // its kind is the record's variant
    f.kind = "matrix";
    out[figure_key(f)] = std::move(f);
  }
  return out;
}

std::string retest_note(const FigureFact& retest, const FigureFact& matrix) {
  return "the re-test of the pair, " + fmt_num(*retest.value) + " " + retest.unit + ", not the matrix figure " +
         fmt_num(*matrix.value) + " " + matrix.unit + " measured beside other flows";
}

// Puts each figure of the run a baseline keeps into `out` under its key, as `make(key, figure)` turns
// it. Figures with equal keys become "KEY #2", "KEY #3", ...: each key remembers how many it numbered,
// so 20,000 equal figures cost 20,000 look-ups rather than 200 million.
template <class Figure, class Make>
void put_run_figures(const Report& report, std::map<std::string, Figure>& out, Make&& make) {
  std::unordered_map<std::string, int> numbered;
  const auto retests = clean_retests(report);
  for (const auto& r : report.results) {
    if (!keeps_baseline_figure(r)) continue;
    const FigureFact f = figure_fact_of(r);
    const std::string base = figure_key(f);
    int& n = numbered[base];
    std::string key = base;
    while (out.count(key)) key = base + " #" + std::to_string(++n + 1);
    const auto clean = f.kind == "matrix" ? retests.find(key) : retests.end();
    BaselineFigure fig = from_fact(clean == retests.end() ? f : clean->second);
    if (clean != retests.end()) fig.judged_on = retest_note(clean->second, f);
    Figure made = make(key, std::move(fig));
    out.emplace(std::move(key), std::move(made));
  }
}

NowFigure now_figure(const std::string& key, BaselineFigure fig) {
  std::string plain = one_interface_key(key, fig);
  return {fig.value, fig.min, std::move(fig.samples), fig.samples_total, std::move(fig.judged_on), fig.rail, std::move(plain)};
}

}  // namespace

Baseline make_baseline(const Report& report, const CompareRule& rule, const Baseline* previous) {
  Baseline b;
  b.created = utc_now_iso8601();
  b.git_commit = report.provenance.git_commit;
  b.hosts = report.provenance.hosts;
  b.rule = rule;
  put_run_figures(report, b.figures, [&](const std::string& key, BaselineFigure&& fig) {
    if (previous)
      if (const auto it = previous->figures.find(key); it != previous->figures.end()) {
        fig.history = it->second.history;
        fig.history.push_back(it->second.value);
        if (fig.history.size() > kMaxHistory) fig.history.erase(fig.history.begin(), fig.history.end() - static_cast<long>(kMaxHistory));
      }
    return std::move(fig);
  });
  return b;
}

NowFigures now_figures(const Report& report) {
  NowFigures out;
  put_run_figures(report, out, now_figure);
  return out;
}

NowFigures now_figures(const Baseline& now) {
  NowFigures out;
  for (const auto& [key, fig] : now.figures) out.emplace_hint(out.end(), key, now_figure(key, fig));
  return out;
}

Spread run_to_run_spread(const BaselineFigure& f, const CompareRule& rule) {
  if (static_cast<int>(f.history.size()) < rule.min_history) {
    if (f.higher_is_better) return {rule.default_rate_spread_pct, false, false};
    const double fast = percentile(f.samples, 1 - rule.time_band_quantile);
    const double slow = percentile(f.samples, rule.time_band_quantile);
    const double band = static_cast<int>(f.samples.size()) >= rule.min_samples && fast > 0 ? (slow / fast - 1) * 100 / 2 : 0;
    if (band > rule.default_time_spread_pct) return {band, false, true};
    return {rule.default_time_spread_pct, false, false};
  }
  std::vector<double> values = f.history;
  values.push_back(f.value);
  const double mid = median_of(values);
  double worst = 0;
  for (const double v : values)
    if (mid > 0) worst = std::max(worst, std::abs(v - mid) / mid * 100);
  return {worst, true, false};
}

}  // namespace gpunet::report
