#include "report/history/history_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>

#include "report/judge/baseline_stats.hpp"

namespace gpunet::report::history {

namespace {

constexpr int64_t kDaySeconds = 86400;
constexpr const char* kWeekdays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};

int group_of(int64_t epoch, Period p) {
  const int64_t day = epoch >= 0 ? epoch / kDaySeconds : (epoch - kDaySeconds + 1) / kDaySeconds;
  if (p == Period::hour) return static_cast<int>((epoch - day * kDaySeconds) / 3600);
  return static_cast<int>(((day + 4) % 7 + 7) % 7);  // 1970-01-01 was a Thursday
}

// The day (hour profile) or week (weekday profile) a value belongs to, for "on 7 of 7 days".
int64_t period_of(int64_t epoch, Period p) {
  const int64_t day = epoch >= 0 ? epoch / kDaySeconds : (epoch - kDaySeconds + 1) / kDaySeconds;
  return p == Period::hour ? day : (day + 4) / 7;
}

// How much worse `v` is than `ref`, in percent (negative: better).
double worse_pct(double v, double ref, bool higher_is_better) {
  if (ref == 0) return 0;
  return (higher_is_better ? ref - v : v - ref) / std::fabs(ref) * 100;
}

// The largest deviation of the values from their median, in percent of it.
double spread_pct(const std::vector<double>& v) {
  const double m = median_of(v);
  double worst = 0;
  if (m == 0) return 0;
  for (double x : v) worst = std::max(worst, std::fabs(x - m) / std::fabs(m) * 100);
  return worst;
}

double noise_threshold(const std::vector<double>& reference, const CompareRule& rule) {
  return std::max(rule.min_effect_pct, rule.noise_factor * spread_pct(reference));
}

// Whether `values` are worse than `reference` beyond noise: the U test when both sides have enough
// values, else complete separation.
bool separated(const std::vector<double>& values, const std::vector<double>& reference, bool higher_is_better,
               const CompareRule& rule, std::size_t tests, std::optional<double>& p) {
  const auto enough = static_cast<std::size_t>(std::max(rule.min_samples, 1));
  if (values.size() >= enough && reference.size() >= enough) {
    p = mann_whitney_p(values, reference);
    return *p < rule.alpha / static_cast<double>(std::max<std::size_t>(tests, 1));
  }
  const auto [lo, hi] = std::minmax_element(reference.begin(), reference.end());
  return std::all_of(values.begin(), values.end(), [&](double v) { return higher_is_better ? v < *lo : v > *hi; });
}

double deviation_sum(const std::vector<double>& v, double centre) {
  double sum = 0;
  for (double x : v) sum += std::fabs(x - centre);
  return sum;
}

std::string parameters_text(const std::string& joined) {
  std::string out = joined;
  std::replace(out.begin(), out.end(), ';', ',');
  for (std::size_t i = 0; (i = out.find(',', i)) != std::string::npos; i += 2) out.insert(i + 1, " ");
  return out;
}

std::string metric_words(const std::string& metric) {
  std::string out = metric;
  std::replace(out.begin(), out.end(), '.', ' ');
  return out;
}

std::map<int, std::vector<const SeriesPoint*>> points_by_group(const Series& s, Period period) {
  std::map<int, std::vector<const SeriesPoint*>> groups;
  for (const auto& p : s.points) groups[group_of(p.epoch, period)].push_back(&p);
  return groups;
}

std::vector<double> values_of(const std::vector<const SeriesPoint*>& points) {
  std::vector<double> out;
  for (const auto* p : points) out.push_back(p->value);
  return out;
}

// The drop over groups [first, last] (all flagged), its counts filled in.
TimeDrop merged_drop(const Series& s, Period period, int first, int last,
                     const std::map<int, std::vector<const SeriesPoint*>>& groups, double reference, double threshold) {
  TimeDrop d;
  d.period = period, d.first = first, d.last = last, d.reference = reference, d.threshold_pct = threshold;
  std::vector<double> values;
  std::set<int64_t> all, low;
  for (int g = first; g <= last; ++g)
    for (const auto* p : groups.at(g)) {
      values.push_back(p->value);
      all.insert(period_of(p->epoch, period));
      if (worse_pct(p->value, reference, s.higher_is_better) > threshold) low.insert(period_of(p->epoch, period));
    }
  d.level = median_of(values);
  d.worse_pct = worse_pct(d.level, reference, s.higher_is_better);
  d.low_periods = static_cast<int>(low.size()), d.periods = static_cast<int>(all.size());
  return d;
}

}  // namespace

std::vector<Series> group_series(const std::vector<StoredFigure>& rows, const std::string& filter) {
  std::vector<Series> out;
  std::map<std::string, std::size_t> index;
  for (const auto& row : rows) {
    const HistoryFigure& f = row.figure;
    const std::string key = f.metric + "|" + f.subject + "|" + f.parameters;
    auto [it, added] = index.try_emplace(key, out.size());
    if (added) {
      Series s;
      s.key = key;
      s.label = f.subject_label + " " + metric_words(f.metric) + (f.parameters.empty() ? "" : " (" + parameters_text(f.parameters) + ")");
      s.unit = f.unit, s.higher_is_better = f.higher_is_better;
      if (!filter.empty() && key.find(filter) == std::string::npos && s.label.find(filter) == std::string::npos) {
        index[key] = SIZE_MAX;
        continue;
      }
      out.push_back(std::move(s));
    }
    if (it->second == SIZE_MAX) continue;
    out[it->second].points.push_back({row.start_epoch, f.value, f.ceiling, f.verdict});
  }
  return out;
}

std::vector<ProfileCell> time_profile(const Series& s, Period period) {
  std::vector<ProfileCell> out;
  for (const auto& [g, points] : points_by_group(s, period)) out.push_back({g, points.size(), median_of(values_of(points))});
  return out;
}

std::vector<TimeDrop> time_drops(const Series& s, Period period, const CompareRule& rule) {
  const auto groups = points_by_group(s, period);
  if (groups.size() < 2) return {};
  std::vector<double> medians;
  for (const auto& [g, points] : groups) medians.push_back(median_of(values_of(points)));
  const double middle = median_of(medians);
  std::vector<double> reference;
  std::vector<int> candidates;
  for (const auto& [g, points] : groups) {
    const double m = median_of(values_of(points));
    if (worse_pct(m, middle, s.higher_is_better) <= 0) {
      for (const auto* p : points) reference.push_back(p->value);
    } else {
      candidates.push_back(g);
    }
  }
  if (reference.empty() || candidates.empty()) return {};
  const double ref = median_of(reference), threshold = noise_threshold(reference, rule);
  std::set<int> flagged;
  std::map<int, std::optional<double>> p_values;
  for (int g : candidates) {
    const auto values = values_of(groups.at(g));
    if (worse_pct(median_of(values), ref, s.higher_is_better) <= threshold) continue;
    if (separated(values, reference, s.higher_is_better, rule, candidates.size(), p_values[g])) flagged.insert(g);
  }
  std::vector<TimeDrop> out;
  for (auto it = flagged.begin(); it != flagged.end();) {
    int first = *it, last = *it;
    // Hours next to each other are one range; days of the week stay apart.
    while (period == Period::hour && flagged.count(last + 1)) ++last;
    TimeDrop d = merged_drop(s, period, first, last, groups, ref, threshold);
    for (int g = first; g <= last; ++g)
      if (p_values[g] && (!d.p_value || *p_values[g] > *d.p_value)) d.p_value = p_values[g];
    out.push_back(d);
    it = flagged.upper_bound(last);
  }
  return out;
}

std::optional<StepChange> step_change(const Series& s, const CompareRule& rule) {
  const std::size_t n = s.points.size();
  if (n < 2 * kStepMinRuns) return std::nullopt;
  std::vector<double> values;
  for (const auto& p : s.points) values.push_back(p.value);
  std::optional<StepChange> best;
  double best_cost = 0;
  // The splits test nearly the same values (one run moves between the sides), so their U tests are
  // judged at rule.alpha, not divided among the splits; the noise threshold of the earlier part is the guard.
  const std::size_t splits = 1;
  for (std::size_t k = kStepMinRuns; k + kStepMinRuns <= n; ++k) {
    const std::vector<double> before(values.begin(), values.begin() + static_cast<long>(k));
    const std::vector<double> after(values.begin() + static_cast<long>(k), values.end());
    const double b = median_of(before), a = median_of(after);
    if (b == 0) continue;
    const double change = (a - b) / std::fabs(b) * 100, threshold = noise_threshold(before, rule);
    if (std::fabs(change) <= threshold) continue;
    const bool worse = worse_pct(a, b, s.higher_is_better) > 0;
    std::optional<double> p;
    if (!separated(after, before, worse ? s.higher_is_better : !s.higher_is_better, rule, splits, p)) continue;
    // Where the step is: the split whose two sides sit closest to their own medians.
    const double cost = deviation_sum(before, b) + deviation_sum(after, a);
    if (!best || cost < best_cost) {
      best = StepChange{s.points[k].epoch, b, a, change, threshold, p, worse};
      best_cost = cost;
    }
  }
  return best;
}

std::string period_text(Period p, int first, int last) {
  if (p == Period::weekday) return kWeekdays[first % 7];
  char text[40];
  std::snprintf(text, sizeof text, "%02d:00-%02d:00 UTC", first, (last + 1) % 24);
  return text;
}

std::string drop_sentence(const Series& s, const TimeDrop& d) {
  const long pct = std::lround(d.worse_pct);
  const std::string how = s.higher_is_better ? " % lower " : " % higher (slower) ";
  const std::string when = d.period == Period::hour ? "at " + period_text(d.period, d.first, d.last) : "on " + period_text(d.period, d.first, d.last) + "s";
  const std::string unit = d.period == Period::hour ? " days" : " weeks";
  return s.label + " is " + std::to_string(pct) + how + when + " on " + std::to_string(d.low_periods) + " of " +
         std::to_string(d.periods) + unit;
}

}  // namespace gpunet::report::history
