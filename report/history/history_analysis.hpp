// What the run history says about each figure. Pure functions over the stored figures:
//   - series: one per figure identity (metric, subject, parameters), its values over time;
//   - time profile: the values grouped by UTC hour of day (or by day of week). The reference is the
//     better half of the groups (by their medians); a group is a drop when its median is worse than
//     the reference median by more than the baseline noise rule's threshold,
//     max(rule.min_effect_pct, rule.noise_factor x spread), spread being the reference values' largest
//     deviation from their median, and, with rule.min_samples values on both sides, the Mann-Whitney U
//     test rejects at rule.alpha / groups tested (else every value of the group must be worse than every
//     reference value). Adjacent hours that drop are reported as one range;
//   - step change: the split of the series (at least kStepMinRuns runs each side) whose later part
//     differs from the earlier part by the same rule, the earlier part giving the noise (its U test at
//     rule.alpha: neighbouring splits test nearly the same values); of the splits that pass, the one whose
//     two parts deviate least from their own medians is the step.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/judge/baseline.hpp"
#include "report/history/history_store.hpp"

namespace gpunet::report::history {

inline constexpr std::size_t kStepMinRuns = 3;

struct SeriesPoint {
  int64_t epoch = 0;
  double value = 0;
  std::optional<double> ceiling;
  std::string verdict;  // the figure's
};

struct Series {
  std::string key;    // metric|subject|parameters
  std::string label;  // "vm:0 -> vm:1 tcp goodput (streams=1, test=matrix)"
  std::string unit;
  bool higher_is_better = true;
  std::vector<SeriesPoint> points;  // oldest first
};

// The stored figures as series, in order of first appearance; only those whose key or label contains
// `filter` (all when empty).
std::vector<Series> group_series(const std::vector<StoredFigure>& rows, const std::string& filter);

enum class Period { hour, weekday };

struct TimeDrop {
  Period period = Period::hour;
  int first = 0, last = 0;      // hours 0-23 (last inclusive), or days 0 = Sunday .. 6
  double worse_pct = 0;         // how much worse the drop's median is than the reference median
  double level = 0, reference = 0;  // the medians, in the series' unit
  double threshold_pct = 0;     // the noise threshold it exceeded
  std::optional<double> p_value;
  int low_periods = 0, periods = 0;  // days (hour) or weeks (weekday) with a low value / with a value
};

// The drops of a series by hour of day or day of week.
std::vector<TimeDrop> time_drops(const Series& s, Period period, const CompareRule& rule);

// One value per group: the median by hour (0-23) or weekday, and how many values; groups without values absent.
struct ProfileCell {
  int group = 0;
  std::size_t values = 0;
  double median = 0;
};
std::vector<ProfileCell> time_profile(const Series& s, Period period);

struct StepChange {
  int64_t epoch = 0;  // the first run after the step
  double before = 0, after = 0;  // medians
  double change_pct = 0;         // (after - before) / before
  double threshold_pct = 0;
  std::optional<double> p_value;
  bool worse = false;
};
std::optional<StepChange> step_change(const Series& s, const CompareRule& rule);

// "vm:0 -> vm:1 tcp goodput (test=matrix) is 40 % lower at 21:00-22:00 UTC on 7 of 7 days".
std::string drop_sentence(const Series& s, const TimeDrop& d);
// "Sunday", "21:00-22:00 UTC".
std::string period_text(Period p, int first, int last);

}  // namespace gpunet::report::history
