// history.md and history.html from a HistoryView. Every string from the file is escaped.
#include <cmath>
#include <cstdio>
#include <numeric>
#include <ostream>

#include "report/analysis/ceilings.hpp"
#include "report/text/escape.hpp"
#include "report/history/history_view.hpp"
#include "report/render/md_table.hpp"
#include "report/render/svg_chart.hpp"

namespace gpunet::report::history {

namespace {

std::string pct_text(double pct) { return std::to_string(std::lround(pct)) + " %"; }

std::string p_text(const std::optional<double>& p) {
  if (!p) return "values apart";
  char text[32];
  std::snprintf(text, sizeof text, "U test p = %.2g", *p);
  return text;
}

// The sentence and its evidence, as plain text (escaped by the renderer).
std::string drop_line(const FigureHistory& f, const TimeDrop& d) {
  return drop_sentence(f.series, d) + " (median " + format_figure(d.level) + " against " + format_figure(d.reference) + " " +
         f.series.unit + " at the other times; noise threshold " + pct_text(d.threshold_pct) + ", " + p_text(d.p_value) + ")";
}

std::string step_line(const FigureHistory& f) {
  const StepChange& s = *f.step;
  return f.series.label + ": a step " + (s.worse ? "for the worse" : "for the better") + " of " + pct_text(s.change_pct) +
         " from the run of " + utc_minutes_text(s.epoch) + " UTC on (median " + format_figure(s.before) + " -> " +
         format_figure(s.after) + " " + f.series.unit + "; noise threshold " + pct_text(s.threshold_pct) + ", " + p_text(s.p_value) + ")";
}

std::vector<std::string> drop_lines(const HistoryView& v) {
  std::vector<std::string> out;
  for (const auto& f : v.figures) {
    for (const auto& d : f.hour_drops) out.push_back(drop_line(f, d));
    for (const auto& d : f.weekday_drops) out.push_back(drop_line(f, d));
  }
  return out;
}

std::vector<std::string> step_lines(const HistoryView& v) {
  std::vector<std::string> out;
  for (const auto& f : v.figures)
    if (f.step) out.push_back(step_line(f));
  return out;
}

std::string scope_line(const HistoryView& v) {
  std::string out = v.file + ": " + std::to_string(v.runs) + " runs from " + utc_minutes_text(v.first_epoch) + " to " +
                    utc_minutes_text(v.last_epoch) + " UTC, " + std::to_string(v.figures.size()) + " figures";
  if (!v.since.empty()) out += ", runs since " + v.since;
  if (!v.filter.empty()) out += ", figures matching '" + v.filter + "'";
  return out + ".";
}

std::string rule_line(const CompareRule& r) {
  char text[400];
  std::snprintf(text, sizeof text,
                "Judged with the baseline noise rule: a group of runs (an hour of day, a day of the week, the runs after "
                "a step) counts as different when its median moves beyond max(%g %%, %g x the spread of the reference "
                "runs) and, with %d values on each side, a Mann-Whitney U test rejects at %g divided by the groups tested.",
                r.min_effect_pct, r.noise_factor, r.min_samples, r.alpha);
  return text;
}

std::vector<std::string> figure_row(const FigureHistory& f) {
  std::string when;
  for (const auto& d : f.hour_drops) when += (when.empty() ? "" : "; ") + period_text(d.period, d.first, d.last);
  for (const auto& d : f.weekday_drops) when += (when.empty() ? "" : "; ") + period_text(d.period, d.first, d.last);
  const std::string step = f.step ? pct_text(f.step->change_pct) + " on " + utc_minutes_text(f.step->epoch) : "";
  return {f.series.label, std::to_string(f.series.points.size()), format_figure(f.series.points.back().value),
          format_figure(f.median), format_figure(f.min), format_figure(f.max), f.series.unit,
          f.ceiling ? format_figure(*f.ceiling) : "", when, step};
}

const std::vector<std::string> kFigureHeaders = {"Figure", "Runs", "Latest", "Median", "Min", "Max", "Unit", "Ceiling", "Drops at", "Step change"};

bool notable(const FigureHistory& f) { return !f.hour_drops.empty() || !f.weekday_drops.empty() || f.step; }

// The figures the table and the trends show, by place: every one up to kHistoryFiguresShown; else
// those that drop or changed in a step first, then the others, in order (a run of an all-pairs matrix
// of 1,024 nodes stores a million figures: their trends were a 3.6 GB history.html).
std::vector<std::size_t> figures_shown(const HistoryView& v) {
  std::vector<std::size_t> out;
  if (v.figures.size() <= kHistoryFiguresShown) {
    out.resize(v.figures.size());
    std::iota(out.begin(), out.end(), std::size_t{0});
    return out;
  }
  for (const bool first : {true, false})
    for (std::size_t i = 0; i < v.figures.size() && out.size() < kHistoryFiguresShown; ++i)
      if (notable(v.figures[i]) == first) out.push_back(i);
  return out;
}

std::string not_shown_line(const HistoryView& v, std::size_t shown) {
  if (shown >= v.figures.size()) return "";
  return std::to_string(shown) + " of " + std::to_string(v.figures.size()) +
         " figures shown: those that drop or changed in a step first; every figure is in history.csv.";
}

std::string md_list(const std::vector<std::string>& lines, const std::string& none) {
  if (lines.empty()) return none + "\n";
  std::string out;
  for (const auto& l : lines) out += "- " + md_escape(l) + "\n";
  return out;
}

std::string md_profile(const FigureHistory& f) {
  MdTable t({"Hour (UTC)", "Runs", "Median " + md_escape(f.series.unit)}, {MdTable::Align::left, MdTable::Align::right, MdTable::Align::right});
  for (const auto& c : time_profile(f.series, Period::hour))
    t.add_row({period_text(Period::hour, c.group, c.group), std::to_string(c.values), format_figure(c.median)});
  return "### " + md_escape(f.series.label) + "\n\n" + t.render() + "\n";
}

LineChart trend_chart(const FigureHistory& f, int64_t first_epoch) {
  LineChart c;
  c.title = f.series.label;
  c.x_label = "days since " + utc_minutes_text(first_epoch) + " UTC";
  c.y_label = f.series.unit;
  ChartSeries s;
  s.label = "value per run";
  for (const auto& p : f.series.points) s.points.emplace_back(static_cast<double>(p.epoch - first_epoch) / 86400.0, p.value);
  c.series.push_back(std::move(s));
  if (f.ceiling) c.ceilings.push_back({"ceiling " + format_figure(*f.ceiling) + " " + f.series.unit, *f.ceiling});
  return c;
}

std::string html_list(const std::vector<std::string>& lines, const std::string& none) {
  if (lines.empty()) return "<p>" + html_escape(none) + "</p>\n";
  std::string out = "<ul>\n";
  for (const auto& l : lines) out += "<li>" + html_escape(l) + "</li>\n";
  return out + "</ul>\n";
}

std::string html_table(const HistoryView& v) {
  std::string out = "<table><tr>";
  for (const auto& h : kFigureHeaders) out += "<th>" + html_escape(h) + "</th>";
  out += "</tr>\n";
  for (const std::size_t i : figures_shown(v)) {
    out += "<tr>";
    for (const auto& cell : figure_row(v.figures[i])) out += "<td>" + html_escape(cell) + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string html_profile(const FigureHistory& f) {
  std::string out = "<h3>" + html_escape(f.series.label) + "</h3>\n<table><tr><th>Hour (UTC)</th><th>Runs</th><th>Median " +
                    html_escape(f.series.unit) + "</th></tr>\n";
  for (const auto& c : time_profile(f.series, Period::hour))
    out += "<tr><td>" + html_escape(period_text(Period::hour, c.group, c.group)) + "</td><td>" + std::to_string(c.values) + "</td><td>" +
           html_escape(format_figure(c.median)) + "</td></tr>\n";
  return out + "</table>\n";
}

constexpr const char* kNoDrops = "No figure is worse at an hour of day or on a day of the week beyond its noise.";
constexpr const char* kNoSteps = "No figure changed in a step beyond its noise.";

}  // namespace

void render_history_csv(const HistoryView& v, std::ostream& os) {
  const char* const keys[] = {"figure", "runs", "latest", "median", "min", "max", "unit", "ceiling", "drops_at", "step_change"};
  for (std::size_t c = 0; c < kFigureHeaders.size(); ++c) os << (c ? "," : "") << keys[c];
  os << "\n";
  for (const auto& f : v.figures) {
    const auto row = figure_row(f);
    for (std::size_t c = 0; c < row.size(); ++c) os << (c ? "," : "") << csv_field(row[c]);
    os << "\n";
  }
}

std::string render_history_md(const HistoryView& v) {
  std::string out = "# Run history\n\n" + md_escape(scope_line(v)) + "\n\n" + md_escape(rule_line(v.rule)) + "\n\n";
  out += "## When figures drop\n\n" + md_list(drop_lines(v), kNoDrops) + "\n";
  out += "## Step changes\n\n" + md_list(step_lines(v), kNoSteps) + "\n";
  out += "## Figures\n\nThe trend of each figure is drawn in history.html.\n\n";
  MdTable t(kFigureHeaders, {MdTable::Align::left, MdTable::Align::right, MdTable::Align::right, MdTable::Align::right,
                             MdTable::Align::right, MdTable::Align::right, MdTable::Align::left, MdTable::Align::right,
                             MdTable::Align::left, MdTable::Align::left});
  const auto shown = figures_shown(v);
  for (const std::size_t i : shown) {
    auto row = figure_row(v.figures[i]);
    for (auto& cell : row) cell = md_escape(cell);
    t.add_row(std::move(row));
  }
  out += t.render() + "\n";
  if (const auto line = not_shown_line(v, shown.size()); !line.empty()) out += md_escape(line) + "\n\n";
  std::string profiles;
  for (const auto& f : v.figures)
    if (!f.hour_drops.empty()) profiles += md_profile(f);
  if (!profiles.empty()) out += "## Hour of day of the figures that drop\n\n" + profiles;
  return out;
}

std::string render_history_html(const HistoryView& v) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
      "<title>Run history</title><style>body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 20px 40px}"
      "table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ddd;padding:3px 7px;text-align:left}"
      ".charts{display:flex;flex-wrap:wrap;gap:12px}svg{background:#fff}</style></head><body>\n";
  out += "<h1>Run history</h1>\n<p>" + html_escape(scope_line(v)) + "</p>\n<p>" + html_escape(rule_line(v.rule)) + "</p>\n";
  out += "<h2>When figures drop</h2>\n" + html_list(drop_lines(v), kNoDrops);
  out += "<h2>Step changes</h2>\n" + html_list(step_lines(v), kNoSteps);
  const auto shown = figures_shown(v);
  const std::string line = not_shown_line(v, shown.size());
  out += "<h2>Figures</h2>\n" + html_table(v) + (line.empty() ? "" : "<p>" + html_escape(line) + "</p>\n") +
         "<h2>Trends</h2>\n<div class=\"charts\">\n";
  for (const std::size_t i : shown) out += svg_line_chart(trend_chart(v.figures[i], v.first_epoch)) + "\n";
  out += "</div>\n";
  std::string profiles;
  for (const auto& f : v.figures)
    if (!f.hour_drops.empty()) profiles += html_profile(f);
  if (!profiles.empty()) out += "<h2>Hour of day of the figures that drop</h2>\n" + profiles;
  return out + "</body></html>\n";
}

}  // namespace gpunet::report::history
