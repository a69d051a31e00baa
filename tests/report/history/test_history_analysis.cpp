// The pure parts of the run history: time parsing, drops by hour of day and day of week, step changes,
// and how many figures history.md and history.html show.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "report/history/history_analysis.hpp"
#include "report/history/history_view.hpp"

namespace gpunet::report::history {
namespace {

constexpr int64_t kDay = 86400;
const int64_t kMonday = *parse_utc_time("2026-11-23");  // a Monday

// A small deterministic wobble (+-2 %) so that no two values tie.
double wobble(int i) { return 1 + 0.02 * (((i * 37) % 9) - 4) / 4.0; }

Series series_of(const std::vector<std::pair<int64_t, double>>& points, bool higher_is_better = true) {
  Series s;
  s.label = "a:0 -> b:1 tcp goodput";
  s.unit = "Gb/s";
  s.higher_is_better = higher_is_better;
  for (const auto& [t, v] : points) s.points.push_back({t, v, std::nullopt, "OK"});
  return s;
}

// Two runs a day for `days` days (09:00 and 21:00); the evening ones times `evening`.
Series twice_a_day(int days, double evening, bool higher_is_better = true) {
  std::vector<std::pair<int64_t, double>> points;
  for (int d = 0; d < days; ++d) {
    points.emplace_back(kMonday + d * kDay + 9 * 3600, 10 * wobble(2 * d));
    points.emplace_back(kMonday + d * kDay + 21 * 3600, 10 * evening * wobble(2 * d + 1));
  }
  return series_of(points, higher_is_better);
}

TEST(HistoryTime, ParsesIsoUtc) {
  EXPECT_EQ(parse_utc_time("1970-01-02"), 86400);
  EXPECT_EQ(parse_utc_time("2026-11-23T21:00:00Z").value() - kMonday, 21 * 3600);
  EXPECT_EQ(parse_utc_time("2026-11-23T21:00").value() - kMonday, 21 * 3600);
  EXPECT_EQ(parse_utc_time("2026-11-23T21:00:05.25Z").value() - kMonday, 21 * 3600 + 5);
  for (const char* bad : {"", "yesterday", "2026-13-01", "2026-11-23T25:00", "2026-11-23T21:00+02:00", "2026-11-23x"})
    EXPECT_FALSE(parse_utc_time(bad)) << bad;
  EXPECT_EQ(utc_minutes_text(kMonday + 21 * 3600 + 60), "2026-11-23 21:01");
}

TEST(HistoryDrops, EveningDropIsNamedWithItsHourAndDays) {
  const Series s = twice_a_day(7, 0.6);
  const auto drops = time_drops(s, Period::hour, CompareRule{});
  ASSERT_EQ(drops.size(), 1u);
  EXPECT_EQ(drops[0].first, 21);
  EXPECT_EQ(drops[0].last, 21);
  EXPECT_EQ(drops[0].low_periods, 7);
  EXPECT_EQ(drops[0].periods, 7);
  EXPECT_NEAR(drops[0].worse_pct, 40, 2);
  EXPECT_EQ(drop_sentence(s, drops[0]), "a:0 -> b:1 tcp goodput is 40 % lower at 21:00-22:00 UTC on 7 of 7 days");
  // Both halves of the day are alike on each weekday: no day of the week drops.
  EXPECT_TRUE(time_drops(s, Period::weekday, CompareRule{}).empty());
}

TEST(HistoryDrops, NoiseAloneIsNoDrop) {
  EXPECT_TRUE(time_drops(twice_a_day(7, 1.0), Period::hour, CompareRule{}).empty());
  EXPECT_TRUE(time_drops(twice_a_day(7, 0.97), Period::hour, CompareRule{}).empty());  // within 5 %
}

TEST(HistoryDrops, TooFewRunsNeedEveryValueApart) {
  // Three days: no U test (fewer than 5 values a side); every evening value is below every morning one.
  EXPECT_EQ(time_drops(twice_a_day(3, 0.6), Period::hour, CompareRule{}).size(), 1u);
  Series mixed = twice_a_day(3, 0.6);
  mixed.points[3].value = 10;  // one evening as good as the mornings
  EXPECT_TRUE(time_drops(mixed, Period::hour, CompareRule{}).empty());
}

TEST(HistoryDrops, AdjacentHoursMergeAndTimesDropUpwards) {
  std::vector<std::pair<int64_t, double>> points;
  for (int d = 0; d < 6; ++d)
    for (int h = 0; h < 24; h += 2) {
      const bool peak = h >= 18 && h <= 22;
      points.emplace_back(kMonday + d * kDay + h * 3600, (peak ? 50.0 : 20.0) * wobble(d * 24 + h));
    }
  const Series latency = series_of(points, false);
  const auto drops = time_drops(latency, Period::hour, CompareRule{});
  ASSERT_EQ(drops.size(), 3u);  // 18, 20, 22: not adjacent hours (none measured between them)
  EXPECT_EQ(drops[0].first, 18);
  EXPECT_NE(drop_sentence(latency, drops[0]).find("% higher (slower) at 18:00-19:00 UTC on 6 of 6 days"), std::string::npos);

  std::vector<std::pair<int64_t, double>> hourly;
  for (int d = 0; d < 6; ++d)
    for (int h = 0; h < 24; ++h) hourly.emplace_back(kMonday + d * kDay + h * 3600, (h >= 19 && h <= 22 ? 6.0 : 10.0) * wobble(d * 24 + h));
  const auto merged = time_drops(series_of(hourly), Period::hour, CompareRule{});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(period_text(Period::hour, merged[0].first, merged[0].last), "19:00-23:00 UTC");
}

TEST(HistoryDrops, SaturdaysDrop) {
  std::vector<std::pair<int64_t, double>> points;
  for (int d = 0; d < 21; ++d) points.emplace_back(kMonday + d * kDay + 12 * 3600, (d % 7 == 5 ? 5.0 : 10.0) * wobble(d));
  const Series s = series_of(points);
  const auto drops = time_drops(s, Period::weekday, CompareRule{});
  ASSERT_EQ(drops.size(), 1u);
  EXPECT_EQ(period_text(Period::weekday, drops[0].first, drops[0].last), "Saturday");
  EXPECT_EQ(drop_sentence(s, drops[0]), "a:0 -> b:1 tcp goodput is 50 % lower on Saturdays on 3 of 3 weeks");
}

TEST(HistoryStep, FindsTheStepAndItsRun) {
  std::vector<std::pair<int64_t, double>> points;
  for (int i = 0; i < 16; ++i) points.emplace_back(kMonday + i * 3600, (i < 10 ? 10.0 : 7.5) * wobble(i));
  const auto step = step_change(series_of(points), CompareRule{});
  ASSERT_TRUE(step);
  EXPECT_EQ(step->epoch, kMonday + 10 * 3600);
  EXPECT_TRUE(step->worse);
  EXPECT_NEAR(step->change_pct, -25, 3);
}

TEST(HistoryStep, NoStepInNoiseOrInADailyPattern) {
  std::vector<std::pair<int64_t, double>> flat;
  for (int i = 0; i < 16; ++i) flat.emplace_back(kMonday + i * 3600, 10 * wobble(i));
  EXPECT_FALSE(step_change(series_of(flat), CompareRule{}));
  EXPECT_FALSE(step_change(twice_a_day(7, 0.6), CompareRule{}));
  EXPECT_FALSE(step_change(series_of({{kMonday, 1}, {kMonday + 1, 2}}), CompareRule{}));  // too short
}

TEST(HistorySeries, GroupsByIdentityAndFilters) {
  std::vector<StoredFigure> rows;
  for (int run = 0; run < 3; ++run)
    for (const char* subject : {"pair:a/0->b/1", "pair:b/1->a/0"}) {
      StoredFigure f;
      f.run_id = std::to_string(run);
      f.start_epoch = kMonday + run;
      f.figure.metric = "tcp.goodput";
      f.figure.subject = subject;
      f.figure.subject_label = std::string(subject) == "pair:a/0->b/1" ? "a:0 -> b:1" : "b:1 -> a:0";
      f.figure.parameters = "streams=1;test=matrix";
      f.figure.value = run;
      rows.push_back(f);
    }
  const auto all = group_series(rows, "");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].label, "a:0 -> b:1 tcp goodput (streams=1, test=matrix)");
  EXPECT_EQ(all[0].points.size(), 3u);
  const auto one = group_series(rows, "b:1 -> a:0");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].points.size(), 3u);
  EXPECT_TRUE(group_series(rows, "nothing").empty());
}

}  // namespace
}  // namespace gpunet::report::history

namespace gpunet::report::history {

// A run of an all-pairs matrix of 1,024 nodes stores a million figures: history.md and history.html
// show 500, those that drop or changed in a step first, and history.csv every one.
TEST(HistoryRender, ManyFiguresShowTheNotableFirstAndTheCsvHoldsEveryOne) {
  HistoryView v;
  v.file = "h.sqlite";
  v.runs = 2;
  for (int i = 0; i < 600; ++i) {
    FigureHistory f;
    f.series.label = "figure-" + std::to_string(i);
    f.series.unit = "Gb/s";
    f.series.points = {{0, 10, std::nullopt, ""}, {86400, 10, std::nullopt, ""}};
    if (i == 550) f.step = StepChange{86400, 10, 5, -50, 15, std::nullopt, true};
    v.figures.push_back(f);
  }
  const std::string md = render_history_md(v);
  EXPECT_NE(md.find("500 of 600 figures shown: those that drop or changed in a step first; every figure is in history.csv."),
            std::string::npos);
  EXPECT_NE(md.find("| figure-550 "), std::string::npos);
  EXPECT_LT(md.find("| figure-550 "), md.find("| figure-0 "));
  EXPECT_EQ(md.find("| figure-499 "), std::string::npos);  // the 500th shown is figure-498
  const std::string html = render_history_html(v);
  std::size_t charts = 0;
  for (auto at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) ++charts;
  EXPECT_EQ(charts, 500u);
  std::ostringstream csv;
  render_history_csv(v, csv);
  const std::string text = csv.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 601);
  EXPECT_EQ(text.substr(0, text.find('\n')), "figure,runs,latest,median,min,max,unit,ceiling,drops_at,step_change");

  v.figures.resize(20);  // few figures: every one, in order, and no line about the others
  const std::string few = render_history_md(v);
  EXPECT_EQ(few.find("figures shown"), std::string::npos);
  EXPECT_LT(few.find("| figure-0 "), few.find("| figure-19 "));
}

}  // namespace gpunet::report::history
