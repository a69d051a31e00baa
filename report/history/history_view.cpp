#include "report/history/history_view.hpp"

#include <algorithm>
#include <set>

#include "report/judge/baseline_stats.hpp"

namespace gpunet::report::history {

HistoryView history_view(const std::vector<StoredFigure>& rows, const std::string& file, const std::string& filter,
                         const std::string& since, const CompareRule& rule) {
  HistoryView v;
  v.file = file, v.filter = filter, v.since = since, v.rule = rule;
  std::set<std::string> runs;
  for (const auto& r : rows) runs.insert(r.run_id);
  v.runs = static_cast<int>(runs.size());
  if (!rows.empty()) v.first_epoch = rows.front().start_epoch, v.last_epoch = rows.back().start_epoch;
  for (auto& s : group_series(rows, filter)) {
    FigureHistory f;
    std::vector<double> values;
    for (const auto& p : s.points) values.push_back(p.value);
    f.median = median_of(values);
    f.min = *std::min_element(values.begin(), values.end());
    f.max = *std::max_element(values.begin(), values.end());
    f.ceiling = s.points.back().ceiling;
    f.hour_drops = time_drops(s, Period::hour, rule);
    f.weekday_drops = time_drops(s, Period::weekday, rule);
    f.step = step_change(s, rule);
    f.series = std::move(s);
    v.figures.push_back(std::move(f));
  }
  return v;
}

}  // namespace gpunet::report::history
