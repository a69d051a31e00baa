// Baselines: a stored run, and tonight's run compared with it figure by figure, aware of noise.
//
// A figure is one passed Record with timed iterations, keyed by
//   suite/name[/variant][/dtype][/op]/BYTESB/npRANKS[@host][#rRANK]
// where @host is added only when the key without it is not unique in the run (per-host and per-pair
// figures), and #rRANK only when that is still not unique.
//
// The comparison works on per-iteration times (lower is faster). For each figure it uses the
// per-iteration samples (Record::extra["samples_us"], stored as at most kMaxStoredSamples evenly spaced
// quantiles) when both runs have them, else the time_us statistics:
//   - fewer than rule.min_samples timed iterations on either side  -> UNCERTAIN (never a verdict from
//     one noisy sample);
//   - |median change| < rule.min_effect_pct                       -> SAME;
//   - with samples: two-sided Mann-Whitney U test, p < rule.alpha / (figures tested with the U test
//     in this comparison, Bonferroni)                              -> SLOWER or FASTER, else UNCERTAIN;
//   - without samples: the distributions must separate: SLOWER when tonight's fastest iteration
//     (time_us.min) is slower than the baseline's median, FASTER when the baseline's fastest is slower
//     than tonight's median, else UNCERTAIN. Slow outliers move neither the minimum nor the median.
// Iterations of one run share that run's conditions, so the test alone would call small steady
// differences between runs significant; the minimum effect (default 5 %) is what keeps run-to-run drift
// from being called a regression.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/record.hpp"

namespace gpunet::report {

inline constexpr int kBaselineVersion = 1;
inline constexpr std::size_t kMaxStoredSamples = 256;

class BaselineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CompareRule {
  int min_samples = 5;          // timed iterations needed on each side
  double alpha = 0.01;          // family-wise significance level of the U tests of one comparison
  double min_effect_pct = 5.0;  // smallest median change that counts
};

struct BaselineFigure {
  std::string suite, name, variant, dtype, op, host;
  int64_t bytes = 0;
  int ranks = 0;
  TimeStats time_us;
  std::vector<double> samples_us;  // per-iteration samples or their quantile summary; may be empty
  int64_t samples_total = 0;       // iterations the run timed (>= samples_us.size())
};

struct Baseline {
  std::string created;     // ISO 8601 UTC
  std::string git_commit;  // of the program that measured it
  std::vector<std::string> hosts;
  CompareRule rule;        // stored with the baseline; edit the file to tune it
  std::map<std::string, BaselineFigure> figures;
};

// The figures of a run (passed records with timed iterations).
Baseline make_baseline(const Report& report, const CompareRule& rule = {});

nlohmann::json baseline_to_json(const Baseline& b);
// Strict; throws BaselineError("SOURCE: field.path: problem").
Baseline baseline_from_json(const nlohmann::json& doc, const std::string& source);
Baseline load_baseline(const std::string& path);                   // throws BaselineError
void save_baseline(const std::string& path, const Baseline& b);    // throws BaselineError

enum class Change { same, faster, slower, uncertain };
std::string to_string(Change c);  // "SAME", "FASTER", "SLOWER", "UNCERTAIN"

struct Comparison {
  std::string key;
  Change change = Change::uncertain;
  std::optional<double> base_p50_us, now_p50_us;
  std::optional<double> change_pct;  // (now - base) / base of the medians, percent
  std::optional<double> p_value;     // when the U test ran
  std::string method;                // "U test", "min/median", "" when not compared
  std::string reason;
};

struct BaselineComparison {
  std::vector<Comparison> rows;  // figures of the baseline: suite, name, variant, then by size
  std::size_t new_figures = 0;   // figures of this run that the baseline lacks
};

// Compares `now` with `base` under base.rule. Pure.
BaselineComparison compare(const Baseline& base, const Baseline& now);

// 1 when any figure is SLOWER, else 0.
int regression_exit_code(const BaselineComparison& c);

// report.extra["baseline"] = {file, rule, rows: [...], new_figures, summary}.
void attach_comparison(Report& report, const std::string& file, const CompareRule& rule, const BaselineComparison& c);

std::string render_comparison_markdown(const BaselineComparison& c);
std::string render_comparison_console(const BaselineComparison& c);

}  // namespace gpunet::report
