// The run history as a report: per figure its series, latest value, ceiling, time-of-day and
// day-of-week drops and step change (history_analysis.hpp), and the renderers of history.md and
// history.html. Pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include "report/history/history_analysis.hpp"

namespace gpunet::report::history {

struct FigureHistory {
  Series series;
  std::vector<TimeDrop> hour_drops, weekday_drops;
  std::optional<StepChange> step;
  double median = 0, min = 0, max = 0;
  std::optional<double> ceiling;  // the latest run's
};

struct HistoryView {
  std::string file;      // the history file, as given
  std::string filter;    // --figure, "" when none
  std::string since;     // --since, "" when none
  int runs = 0;
  int64_t first_epoch = 0, last_epoch = 0;
  CompareRule rule;
  std::vector<FigureHistory> figures;
};

// The view of the stored figures (oldest run first).
HistoryView history_view(const std::vector<StoredFigure>& rows, const std::string& file, const std::string& filter,
                         const std::string& since, const CompareRule& rule = {});

// history.md and history.html show at most kHistoryFiguresShown figures in their table and trends
// (those that drop or changed in a step first) and say how many they left out; history.csv holds every
// figure's row.
inline constexpr std::size_t kHistoryFiguresShown = 500;
std::string render_history_md(const HistoryView& v);
std::string render_history_html(const HistoryView& v);
void render_history_csv(const HistoryView& v, std::ostream& os);

}  // namespace gpunet::report::history
