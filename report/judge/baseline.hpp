// Baselines: a stored run, and tonight's run compared with it figure by figure, aware of noise.
//
// A figure is the typed figure of a passed record (report/judge/figure_select.hpp): a TCP flow's goodput
// (higher is better, samples: its timeline intervals), a collective's or copy's bandwidth (samples:
// the rate of each timed batch), or a median time (lower is better, samples: the iterations). Its key is its metric, subject and parameters (never the bytes
// a TCP flow happened to receive), e.g. "tcp/bandwidth/matrix goodput_Gbps node0 -> node3".
//
// The comparison of one figure, with change = (now - base) / base of the figure's value:
//   - fewer than rule.min_samples samples on either side (and no summary to fall back to) -> UNCERTAIN;
//   - |change| within the noise threshold                                   -> SAME, where
//       threshold = max(rule.min_effect_pct, rule.noise_factor x spread) and spread is the figure's
//       run-to-run spread: the largest deviation from their median of the values in the figure's
//       history (earlier baselines rolled forward with --baseline B --save-baseline B), once it holds
//       rule.min_history values; until then rule.default_rate_spread_pct or rule.default_time_spread_pct,
//       for a time at least half the relative width of its own p10-p90 band (run_to_run_spread);
//   - beyond it, with samples on both sides: a two-sided Mann-Whitney U test at rule.alpha divided by
//     the number of figures tested (Bonferroni) -> SLOWER or FASTER by the figure's direction, else
//     UNCERTAIN; where the samples are too few for the test to reach that level at all (5 and 5 give
//     p >= 0.0122: a 0.5 s flow's timeline among a matrix's figures), samples that do not overlap
//     stand for significance (method "separation"); for a time, also tonight's median must leave the
//     baseline's own band (above its samples' rule.time_band_quantile, or below 1 - it), else UNCERTAIN;
//   - beyond it without samples: times must separate (tonight's fastest iteration slower than the
//     baseline's median); rates are judged on the summary value alone, and the reason says so.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/json.hpp"

#include "report/model/record.hpp"

namespace gpunet::report {

inline constexpr int kBaselineVersion = 2;
inline constexpr std::size_t kMaxHistory = 10;
inline constexpr std::size_t kMaxStoredSamples = 256;

class BaselineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CompareRule {
  int min_samples = 5;                   // samples needed on each side for the U test
  double alpha = 0.01;                   // family-wise significance level of the U tests of one comparison
  double min_effect_pct = 5.0;           // smallest change that counts, whatever the noise
  double noise_factor = 3.0;             // a change must exceed this many run-to-run spreads
  double default_rate_spread_pct = 5.0;  // run-to-run spread of a rate (goodput) before history exists
  double default_time_spread_pct = 15.0; // the same for times (latency, collective iterations)
  int min_history = 2;                   // earlier values needed before the history's spread is used
  // A time beyond the threshold is SLOWER only when tonight's median is also above the baseline's own
  // samples at this quantile (FASTER: below them at 1 - it). A latency with two modes (a wake-up on
  // the same core, a few us, or on another, tens of us) moves its median when the mix moves; the whole
  // distribution moves when the path does.
  double time_band_quantile = 0.9;
};

struct BaselineFigure {
  std::string suite, test, kind, metric, subject, unit;
  std::vector<std::string> hosts;  // the hosts the subject involves
  bool higher_is_better = true;
  double value = 0;                // the run's figure: goodput, or the median time
  double min = 0;                  // the fastest iteration (times), for the summary rule
  std::vector<double> samples;     // per-iteration times or timeline rates, as a quantile summary
  int64_t samples_total = 0;       // samples the run took (>= samples.size())
  std::string samples_from;        // "iterations", "timeline" or "summary" (none: the value alone)
  std::vector<double> history;     // the values of earlier baselines, oldest first (at most kMaxHistory)
  int rail = -1;                   // the rail of a figure of a run on several rails, else -1 ("rail" in the file)
  // Not stored: what the run's value is when it is not the figure's own measurement. A matrix pair
  // direction whose re-test passed takes the re-test's figure, measured without the matrix's other
  // flows ("the re-test of the pair alone, 0.94 Gb/s, not the matrix figure 0.41 Gb/s measured beside
  // other flows"); the comparison says so in its reason.
  std::string judged_on;
};

struct Baseline {
  std::string created;     // ISO 8601 UTC
  std::string git_commit;  // of the program that measured it
  std::vector<std::string> hosts;
  CompareRule rule;        // stored with the baseline; edit the file to tune it
  std::map<std::string, BaselineFigure> figures;
};

// The figures of a run. A tcp matrix pair direction whose re-test passed (a re-test record, passed,
// extra.confirmed false) is represented by the re-test's figure: the matrix measured it beside other
// flows, the re-test on its own path. With `previous` (the baseline this run was compared with), each figure's
// history is the previous one's plus its value: rolling a baseline forward accumulates the
// run-to-run spread.
Baseline make_baseline(const Report& report, const CompareRule& rule = {}, const Baseline* previous = nullptr);

// The run-to-run spread of a figure in percent, and whether it came from its history. Before the
// history holds rule.min_history values, a time's default is widened to half the relative width of
// its own band, (p90 / p10 - 1) / 2 at rule.time_band_quantile: a latency with two modes flips between
// them from run to run (measured on this VM: 11 and 25 us in unchanged reruns), and the band is the
// only evidence of that a single run holds. A unimodal time's band is narrow and changes nothing.
struct Spread {
  double pct = 0;
  bool from_history = false;
  bool from_band = false;  // a time's default widened by its own band (see run_to_run_spread)
};
Spread run_to_run_spread(const BaselineFigure& f, const CompareRule& rule);

gpunet::json baseline_to_json(const Baseline& b);
// The baseline file: baseline_to_json's content with the figures last, one line each, written as it
// goes (a million figures are never one tree).
void write_baseline(std::ostream& os, const Baseline& b);
gpunet::json rule_json(const CompareRule& r);
// Strict; throws BaselineError("SOURCE: field.path: problem").
Baseline baseline_from_json(const gpunet::json& doc, const std::string& source);
Baseline load_baseline(const std::string& path);                   // throws BaselineError
// The same of a baseline file's text (the run history keeps one per run); throws BaselineError.
Baseline baseline_from_text(std::string_view text, const std::string& source);
// write_baseline's text.
std::string baseline_text(const Baseline& b);
// Returns the bytes written; throws BaselineError.
std::size_t save_baseline(const std::string& path, const Baseline& b);
// When a saved baseline of `bytes` is larger than --baseline reads (an all-pairs matrix of some 1,500
// hosts or more: 1,024 save 384 MiB): one sentence saying so and what to do instead; none otherwise. Pure.
std::optional<std::string> baseline_too_large(const std::string& path, std::size_t bytes);

enum class Change { same, faster, slower, uncertain };
std::string to_string(Change c);  // "SAME", "FASTER", "SLOWER", "UNCERTAIN"

struct Comparison {
  std::string key;
  Change change = Change::uncertain;
  std::optional<double> base_value, now_value;  // in `unit`
  std::string unit;
  std::vector<std::string> hosts;    // the hosts the figure's subject involves
  std::optional<double> change_pct;  // (now - base) / base, percent
  std::optional<double> threshold_pct;  // the noise threshold it was judged against
  std::optional<double> p_value;     // when the U test ran
  std::string method;                // "U test", "min/median", "summary", "" when not compared
  std::string reason;
};

// The rows a report.json written at scale left out, by what they were (SLOWER rows only past the
// 16,384 with the largest change): a comparison read back from such a file holds them only as counts.
struct RowsNotListed {
  std::size_t same = 0, faster = 0, uncertain = 0, slower = 0;
  std::size_t total() const { return same + faster + uncertain + slower; }
};

struct BaselineComparison {
  std::vector<Comparison> rows;  // figures of the baseline: suite, name, variant, then by size
  std::size_t new_figures = 0;   // figures of this run that the baseline lacks
  RowsNotListed not_listed;      // none in a comparison just made
  std::size_t figures() const { return rows.size() + not_listed.total(); }
};

// The key a one-interface run gives the figure `f` (keyed `key`) of rail 0 of a run on several rails:
// its subject without the ends' interfaces ("tcp/bandwidth/matrix goodput a:eth0 -> b:eth0" ->
// "tcp/bandwidth/matrix goodput a -> b"). "" for a figure of another rail or of no rail. Pure.
std::string one_interface_key(const std::string& key, const BaselineFigure& f);

// Compares `now` with `base` under base.rule. Pure. A figure of a one-interface run and the same
// figure on rail 0 of a run on several rails are one figure (whichever side the rails are on): a
// baseline saved before the rails existed still judges tonight's first rail.
BaselineComparison compare(const Baseline& base, const Baseline& now);

// What a comparison reads of a figure of tonight's run: its values, and the keys it answers to. The
// baseline's figure describes it (suite, subject, unit, hosts). A million take some 0.3 GB, where as
// BaselineFigures they take 0.7.
struct NowFigure {
  double value = 0, min = 0;        // as BaselineFigure's
  std::vector<double> samples;      // as BaselineFigure's
  int64_t samples_total = 0;
  std::string judged_on;            // as BaselineFigure's
  int rail = -1;
  std::string one_interface_key;    // one_interface_key of its key ("" but on rail 0)
};
using NowFigures = std::map<std::string, NowFigure>;
// The figures make_baseline makes of a run (the same keys, a passed re-test's figure for its pair), as
// a comparison reads them.
NowFigures now_figures(const Report& report);
NowFigures now_figures(const Baseline& now);
// compare(), freeing each of now's figures once it is judged: at 1,024 hosts a million figures, whose
// place the comparison's rows take (now is left empty).
BaselineComparison compare(const Baseline& base, NowFigures&& now);

// `base` with the value of every figure the comparison found SAME appended to its history (at most
// kMaxHistory kept); values and every other figure unchanged. A night that failed elsewhere, or whose
// other figures were UNCERTAIN on busy hosts, still teaches the baseline its noise. Pure.
Baseline learn_noise(const Baseline& base, const Baseline& now, const BaselineComparison& c);

// 1 when any figure is SLOWER, else 0.
int regression_exit_code(const BaselineComparison& c);

// report.extra["baseline"] = {file, rule, rows: [...], new_figures, summary}, and not_listed
// ({"SAME": n, "FASTER": n, "UNCERTAIN": n}, and "SLOWER": n when it left SLOWER rows out) when
// comparison_rows_listed leaves rows out.
void attach_comparison(Report& report, const std::string& file, const CompareRule& rule, const BaselineComparison& c);

// "12 figures: 10 SAME, ...": the line under the comparison in every format.
std::string comparison_summary(const BaselineComparison& c);

// The rows the console, report.md and report.html show, at most kComparisonRowsShown: a matrix of
// 1,024 nodes compares a million figures. Every row in order when there are no more; else, by their
// place in c.rows, the SLOWER, then UNCERTAIN, FASTER and SAME, each largest change first (baseline.csv
// holds every row). Pure.
inline constexpr std::size_t kComparisonRowsShown = 1000;
std::vector<std::size_t> comparison_rows_shown(const BaselineComparison& c, std::size_t most = kComparisonRowsShown);
// "1000 of 4032 figures shown: ...; every figure is in baseline.csv." when not every row is shown. Pure.
std::optional<std::string> comparison_rows_not_shown(const BaselineComparison& c, std::size_t shown);
// The rows report.json and junit.xml list, by place in c.rows; empty: every one. Above
// kWholeComparisonUpTo rows (a matrix of 128 nodes compares 16,256 figures), the SLOWER rows
// (kWholeComparisonUpTo at most, the largest change first: half of 1,024 nodes slow makes 785,920) and
// those the documents show (comparison_rows_shown); the others are counted (RowsNotListed). Pure.
inline constexpr std::size_t kWholeComparisonUpTo = 16384;
std::vector<bool> comparison_rows_listed(const BaselineComparison& c, std::size_t whole_up_to = kWholeComparisonUpTo);
// What the rows `listed` leaves out were, with those c held only as counts (c.not_listed).
RowsNotListed rows_not_listed(const BaselineComparison& c, const std::vector<bool>& listed);
// One row's texts: figure, baseline, now, change, test, verdict, reason (report/document/acceptance_section.hpp).
std::vector<std::string> comparison_cells(const Comparison& r);
std::string render_comparison_console(const BaselineComparison& c);

}  // namespace gpunet::report
