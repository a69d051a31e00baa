// The noise-aware comparison of a run with a baseline (rule in report/judge/baseline.hpp), and its tables.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "report/judge/baseline.hpp"
#include "report/judge/baseline_stats.hpp"
#include "report/text/escape.hpp"
#include "report/model/json_unique_keys.hpp"
#include "report/model/stats.hpp"
#include "report/judge/verdicts_facts.hpp"

namespace gpunet::report {

using gpunet::json;

std::string to_string(Change c) {
  switch (c) {
    case Change::same: return "SAME";
    case Change::faster: return "FASTER";
    case Change::slower: return "SLOWER";
    case Change::uncertain: return "UNCERTAIN";
  }
  return "UNCERTAIN";
}

namespace {

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f %%", v);
  return buf;
}

std::string p_str(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, p < 1e-4 ? "p<1e-4" : "p=%.4f", p);
  return buf;
}

bool testable(const BaselineFigure& b, const NowFigure& n, const CompareRule& rule) {
  return static_cast<int>(b.samples.size()) >= rule.min_samples && static_cast<int>(n.samples.size()) >= rule.min_samples;
}

// `tests` is the number of figures compared with the U test: the significance level is divided by it
// (Bonferroni), so that a night with hundreds of figures does not raise false alarms at rate alpha each.
Comparison judge(const std::string& key, const BaselineFigure& b, const NowFigure& n, const CompareRule& rule,
                 std::size_t tests) {
  Comparison c;
  c.key = key;
  c.unit = b.unit;
  c.hosts = b.hosts;
  c.base_value = b.value;
  c.now_value = n.value;
  const bool with_samples = testable(b, n, rule);
  const bool time = !b.higher_is_better;
  const int64_t fewest = std::min(b.samples_total, n.samples_total);
  if (time && fewest < rule.min_samples) {
    c.reason = "only " + std::to_string(fewest) + " timed iteration" + (fewest == 1 ? "" : "s") + " (a verdict needs " +
               std::to_string(rule.min_samples) + " on each side)";
    return c;
  }
  if (b.value <= 0) {
    c.reason = "the baseline value is zero";
    return c;
  }
  const double rel = (n.value - b.value) / b.value * 100;
  c.change_pct = rel;
  const bool worse = b.higher_is_better ? rel < 0 : rel > 0;
  const Change direction = worse ? Change::slower : Change::faster;
  const Spread spread = run_to_run_spread(b, rule);
  const double threshold = std::max(rule.min_effect_pct, rule.noise_factor * spread.pct);
  c.threshold_pct = threshold;
  const std::string noise = "run-to-run spread " + fmt_num(spread.pct) + " % (" +
                            (spread.from_history ? "from " + std::to_string(b.history.size() + 1) + " baselines"
                             : spread.from_band ? std::string("half the width of the baseline's own p10-p90 band; roll the baseline forward to learn it")
                                                : std::string("default; roll the baseline forward to learn it")) + ")";
  if (with_samples) {
    c.method = "U test";
    c.p_value = mann_whitney_p(b.samples, n.samples);
  } else {
    c.method = time ? "min/median" : "summary";
  }
  if (std::fabs(rel) <= threshold) {
    c.change = Change::same;
    c.reason = "within the noise threshold of " + fmt_num(threshold) + " %: " + noise;
    return c;
  }
  if (with_samples) {
    const double alpha = rule.alpha / static_cast<double>(std::max<std::size_t>(tests, 1));
    const std::string alpha_text = "alpha " + fmt_num(rule.alpha) + (tests > 1 ? "/" + std::to_string(tests) : "");
    const double smallest = mann_whitney_smallest_p(b.samples.size(), n.samples.size());
    bool significant = *c.p_value < alpha;
    if (significant || smallest < alpha) {
      c.reason = "beyond " + fmt_num(threshold) + " % (" + noise + "), " + (significant ? "significant (" : "not significant (") +
                 p_str(*c.p_value) + ", " + alpha_text + ")";
    } else {
      // Too few samples for the test to reach the corrected level at all (5 timeline intervals of a
      // 0.5 s flow among a matrix's figures): samples that do not overlap are the most it could show.
      const bool fewer = b.higher_is_better == (direction == Change::slower);  // the figure's values fell
      significant = fewer ? entirely_below(n.samples, b.samples) : entirely_below(b.samples, n.samples);
      c.method = "separation";
      c.reason = "beyond " + fmt_num(threshold) + " % (" + noise + "); " + std::to_string(b.samples.size()) + " and " +
                 std::to_string(n.samples.size()) + " samples are too few for the U test to reach " + alpha_text +
                 " (at best " + p_str(smallest) + "), so the samples must not overlap: " +
                 (significant ? "every sample now is " + std::string(fewer ? "below" : "above") + " every baseline sample"
                              : std::string("they overlap"));
    }
    c.change = significant ? direction : Change::uncertain;
    if (significant && time) {
      const double q = direction == Change::slower ? rule.time_band_quantile : 1 - rule.time_band_quantile;
      const double edge = percentile(b.samples, q);
      const bool outside = direction == Change::slower ? n.value > edge : n.value < edge;
      if (!outside) {
        c.change = Change::uncertain;
        c.reason += "; but the median now " + fmt_num(n.value) + " us is within the baseline's own band (its p" +
                    std::to_string(static_cast<int>(std::lround(q * 100))) + " " + fmt_num(edge) + " us): the mix of its fast and slow iterations moved, not the whole distribution";
      }
    }
    return c;
  }
  if (!time) {
    c.change = direction;
    c.reason = "beyond " + fmt_num(threshold) + " % (" + noise + "); no samples: judged on the summary value alone";
    return c;
  }
  // Times without samples: the distributions must separate, judged by their robust ends. Slower means
  // tonight's fastest iteration is slower than the baseline's median (faster: the reverse).
  const bool apart = direction == Change::slower ? n.min > b.value : b.min > n.value;
  c.change = apart ? direction : Change::uncertain;
  c.reason = direction == Change::slower
                 ? "fastest iteration now " + fmt_num(n.min) + (apart ? " us > " : " us <= ") + "baseline median"
                 : "baseline fastest " + fmt_num(b.min) + (apart ? " us > " : " us <= ") + "median now";
  c.reason += std::string(apart ? "" : " (overlap)") + "; no per-iteration samples: judged on the summary";
  return c;
}

std::size_t count(const BaselineComparison& c, Change which) {
  return static_cast<std::size_t>(std::count_if(c.rows.begin(), c.rows.end(), [&](const Comparison& r) { return r.change == which; }));
}

std::string summary(const BaselineComparison& c) {
  std::ostringstream os;
  os << c.figures() << " figures: " << count(c, Change::same) + c.not_listed.same << " SAME, "
     << count(c, Change::faster) + c.not_listed.faster << " FASTER, " << count(c, Change::slower) + c.not_listed.slower << " SLOWER, "
     << count(c, Change::uncertain) + c.not_listed.uncertain << " UNCERTAIN";
  if (c.new_figures) os << "; " << c.new_figures << " new without a baseline";
  return os.str();
}

std::string opt_num(const std::optional<double>& v) { return v ? fmt_num(*v) : "-"; }

struct Cells {
  std::string key, base, now, change, test, verdict, reason;
};

Cells cells(const Comparison& r) {
  const std::string unit = r.unit.empty() ? "" : " " + r.unit;
  return {r.key,   opt_num(r.base_value) + unit, opt_num(r.now_value) + unit, r.change_pct ? pct(*r.change_pct) : "-",
          r.method.empty() ? "-" : r.method, to_string(r.change), r.reason};
}

// "a:eth0 -> b:eth0" -> "a -> b": each end of a subject label without its interface.
std::string without_ifaces(const std::string& subject) {
  for (const std::string sep : {" <-> ", " -> "})
    if (const auto at = subject.find(sep); at != std::string::npos)
      return without_ifaces(subject.substr(0, at)) + sep + without_ifaces(subject.substr(at + sep.size()));
  const auto colon = subject.rfind(':');
  return colon == std::string::npos ? subject : subject.substr(0, colon);
}

// The figure of `now` that the baseline figure `b` (keyed `key`) stands for: the same key, else the
// same figure across a one-interface run and rail 0 of a rail run (`rail0`: one_interface_key of now's
// rail-0 figures -> their key).
NowFigures::const_iterator find_now(const NowFigures& now, const std::string& key, const BaselineFigure& b,
                                    const std::map<std::string, std::string>& rail0) {
  if (const auto it = now.find(key); it != now.end()) return it;
  if (b.rail < 0) {
    const auto a = rail0.find(key);
    return a == rail0.end() ? now.end() : now.find(a->second);
  }
  const std::string plain = one_interface_key(key, b);
  if (plain.empty()) return now.end();
  const auto it = now.find(plain);
  return it != now.end() && it->second.rail < 0 ? it : now.end();
}

std::map<std::string, std::string> rail0_aliases(const NowFigures& now) {
  std::map<std::string, std::string> out;
  for (const auto& [key, f] : now)
    if (!f.one_interface_key.empty()) out.emplace(f.one_interface_key, key);
  return out;
}

}  // namespace

std::string comparison_summary(const BaselineComparison& c) { return summary(c); }

std::vector<std::string> comparison_cells(const Comparison& r) {
  const Cells x = cells(r);
  return {x.key, x.base, x.now, x.change, x.test, x.verdict, x.reason};
}

std::string one_interface_key(const std::string& key, const BaselineFigure& f) {
  if (f.rail != 0 || f.subject.empty() || key.size() <= f.subject.size() ||
      key.compare(key.size() - f.subject.size(), f.subject.size(), f.subject) != 0)
    return "";
  return key.substr(0, key.size() - f.subject.size()) + without_ifaces(f.subject);
}

BaselineComparison compare(const Baseline& base, NowFigures&& now) {
  BaselineComparison out;
  const auto rail0 = rail0_aliases(now);
  using Entry = std::pair<const std::string, BaselineFigure>;
  using Found = NowFigures::const_iterator;
  // Rows in reading order: suite, name, variant, dtype, op, then sizes by number, ranks and host: the
  // figures grouped by suite, test, kind and metric, in key order within a group (a million figures
  // of an all-pairs matrix of 1,024 nodes sort no key against another).
  std::map<std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>, std::vector<const Entry*>> groups;
  for (const auto& entry : base.figures) {
    const auto& f = entry.second;
    groups[{f.suite, f.test, f.kind, f.metric}].push_back(&entry);
  }
  std::vector<std::pair<const Entry*, Found>> order;  // each baseline figure and the figure of now it stands for
  order.reserve(base.figures.size());
  std::unordered_map<const NowFigure*, std::size_t> last_use;  // now's figures that a baseline figure found
  std::size_t tests = 0;
  for (const auto& [group, entries] : groups)
    for (const Entry* entry : entries) {
      const auto it = find_now(now, entry->first, entry->second, rail0);
      if (it != now.end()) {
        if (testable(entry->second, it->second, base.rule)) ++tests;
        last_use[&it->second] = order.size();
      }
      order.emplace_back(entry, it);
    }
  out.new_figures = now.size() - last_use.size();
  out.rows.reserve(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto& [entry, it] = order[k];
    const auto& [key, b] = *entry;
    if (it == now.end()) {
      Comparison c;
      c.key = key;
      c.base_value = b.value;
      c.unit = b.unit;
      c.hosts = b.hosts;
      c.reason = "not measured in this run";
      out.rows.push_back(std::move(c));
      continue;
    }
    out.rows.push_back(judge(key, b, it->second, base.rule, tests));
    if (!it->second.judged_on.empty()) out.rows.back().reason = "judged on " + it->second.judged_on + ": " + out.rows.back().reason;
    if (it->first != key) out.rows.back().reason += (out.rows.back().reason.empty() ? "" : "; ") + ("compared with " + it->first);
    if (last_use.at(&it->second) == k) now.erase(it);  // its last use: free it
  }
  now.clear();  // the figures no baseline figure stands for
  return out;
}

BaselineComparison compare(const Baseline& base, const Baseline& now) { return compare(base, now_figures(now)); }

Baseline learn_noise(const Baseline& base, const Baseline& now_baseline, const BaselineComparison& c) {
  Baseline out = base;
  const NowFigures now = now_figures(now_baseline);
  const auto rail0 = rail0_aliases(now);
  for (const auto& row : c.rows) {
    if (row.change != Change::same) continue;
    const auto in_base = base.figures.find(row.key);
    if (in_base == base.figures.end()) continue;
    const auto from = find_now(now, row.key, in_base->second, rail0);
    const auto to = out.figures.find(row.key);
    if (from == now.end() || to == out.figures.end()) continue;
    auto& h = to->second.history;
    h.push_back(from->second.value);
    if (h.size() > kMaxHistory) h.erase(h.begin(), h.end() - static_cast<long>(kMaxHistory));
  }
  return out;
}

int regression_exit_code(const BaselineComparison& c) { return count(c, Change::slower) + c.not_listed.slower ? 1 : 0; }

void attach_comparison(Report& report, const std::string& file, const CompareRule& rule, const BaselineComparison& c) {
  json rows = json::array();
  const auto listed = comparison_rows_listed(c);
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    if (!listed.empty() && !listed[i]) continue;
    const Comparison& r = c.rows[i];
    json row{{"figure", r.key}, {"change", to_string(r.change)}, {"method", r.method}, {"reason", r.reason}};
    row["base"] = r.base_value ? json(*r.base_value) : json(nullptr);
    row["now"] = r.now_value ? json(*r.now_value) : json(nullptr);
    row["unit"] = r.unit;
    row["hosts"] = r.hosts;
    row["threshold_pct"] = r.threshold_pct ? json(*r.threshold_pct) : json(nullptr);
    row["change_pct"] = r.change_pct ? json(*r.change_pct) : json(nullptr);
    // A U test over long sweeps can give p far below 1e-100 (or a denormal), which no reader of the
    // file accepts (kSmallestFileNumber): written as that bound, the same verdict either way.
    row["p_value"] = r.p_value ? json(*r.p_value > 0 ? std::max(*r.p_value, kSmallestFileNumber) : 0.0) : json(nullptr);
    rows.push_back(row);
  }
  json& out = report.extra["baseline"] = json{
      {"file", file},
      {"rule", rule_json(rule)},
      {"rows", std::move(rows)},
      {"new_figures", c.new_figures},
      {"summary", summary(c)}};
  if (const RowsNotListed n = rows_not_listed(c, listed); n.total()) {
    out["not_listed"] = json{{"SAME", n.same}, {"FASTER", n.faster}, {"UNCERTAIN", n.uncertain}};
    if (n.slower) out["not_listed"]["SLOWER"] = n.slower;
  }
}

std::vector<std::size_t> comparison_rows_shown(const BaselineComparison& c, std::size_t most) {
  std::vector<std::size_t> order(c.rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (order.size() <= most) return order;
  const auto rank = [](Change x) { return x == Change::slower ? 0 : x == Change::uncertain ? 1 : x == Change::faster ? 2 : 3; };
  const auto key = [&](std::size_t i) {
    const Comparison& r = c.rows[i];
    return std::tuple(rank(r.change), -std::fabs(r.change_pct.value_or(0)), i);
  };
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(most), order.end(),
                    [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  order.resize(most);
  return order;
}

std::optional<std::string> comparison_rows_not_shown(const BaselineComparison& c, std::size_t shown) {
  if (shown >= c.figures()) return std::nullopt;
  return std::to_string(shown) + " of " + std::to_string(c.figures()) +
         " figures shown: the SLOWER, then UNCERTAIN, FASTER and SAME, each largest change first; " +
         (c.not_listed.slower ? "report.json lists the SLOWER ones with the largest change, the run's own baseline.csv every figure."
          : c.not_listed.total() ? "report.json lists every SLOWER one, the run's own baseline.csv every figure."
                                 : "every figure is in baseline.csv.");
}

std::vector<bool> comparison_rows_listed(const BaselineComparison& c, std::size_t whole_up_to) {
  if (c.rows.size() <= whole_up_to) return {};
  std::vector<bool> listed(c.rows.size(), false);
  // One order serves both (the SLOWER first, the largest change first): the rows the documents show
  // are its first kComparisonRowsShown.
  const auto order = comparison_rows_shown(c, std::max(whole_up_to, kComparisonRowsShown));
  for (std::size_t k = 0; k < order.size(); ++k)
    listed[order[k]] = k < kComparisonRowsShown || (k < whole_up_to && c.rows[order[k]].change == Change::slower);
  return listed;
}

RowsNotListed rows_not_listed(const BaselineComparison& c, const std::vector<bool>& listed) {
  RowsNotListed n = c.not_listed;
  for (std::size_t i = 0; i < listed.size() && i < c.rows.size(); ++i) {
    if (listed[i]) continue;
    const Change x = c.rows[i].change;
    (x == Change::same ? n.same : x == Change::faster ? n.faster : x == Change::slower ? n.slower : n.uncertain) += 1;
  }
  return n;
}

std::string render_comparison_console(const BaselineComparison& c) {
  std::vector<Cells> rows{{"Figure", "Baseline", "Now", "Change", "Test", "Verdict", "Reason"}};
  const auto shown = comparison_rows_shown(c);
  for (const std::size_t i : shown) rows.push_back(cells(c.rows[i]));
  std::size_t w[6] = {0, 0, 0, 0, 0, 0};
  for (const auto& x : rows) {
    const std::string* f[6] = {&x.key, &x.base, &x.now, &x.change, &x.test, &x.verdict};
    for (int i = 0; i < 6; ++i) w[i] = std::max(w[i], f[i]->size());
  }
  std::ostringstream os;
  for (const auto& x : rows) {
    const std::string* f[6] = {&x.key, &x.base, &x.now, &x.change, &x.test, &x.verdict};
    for (int i = 0; i < 6; ++i) os << *f[i] << std::string(w[i] - f[i]->size() + 2, ' ');
    os << x.reason << "\n";
  }
  if (const auto left_out = comparison_rows_not_shown(c, shown.size())) os << *left_out << "\n";
  os << summary(c) << "\n";
  return os.str();
}

}  // namespace gpunet::report
