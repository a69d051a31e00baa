// The noise-aware comparison of a run with a baseline (rule in report/baseline.hpp), and its tables.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <tuple>

#include "report/baseline.hpp"
#include "report/baseline_stats.hpp"
#include "report/escape.hpp"
#include "report/verdicts_facts.hpp"

namespace gpunet::report {

using nlohmann::json;

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

bool testable(const BaselineFigure& b, const BaselineFigure& n, const CompareRule& rule) {
  return static_cast<int>(b.samples_us.size()) >= rule.min_samples && static_cast<int>(n.samples_us.size()) >= rule.min_samples;
}

// `tests` is the number of figures compared with the U test: the significance level is divided by it
// (Bonferroni), so that a night with hundreds of figures does not raise false alarms at rate alpha each.
Comparison judge(const std::string& key, const BaselineFigure& b, const BaselineFigure& n, const CompareRule& rule,
                 std::size_t tests) {
  Comparison c;
  c.key = key;
  const bool with_samples = testable(b, n, rule);
  const double base = with_samples ? median_of(b.samples_us) : b.time_us.p50;
  const double now = with_samples ? median_of(n.samples_us) : n.time_us.p50;
  c.base_p50_us = base;
  c.now_p50_us = now;
  const int64_t fewest = std::min(b.samples_total, n.samples_total);
  if (fewest < rule.min_samples) {
    c.reason = "only " + std::to_string(fewest) + " timed iteration" + (fewest == 1 ? "" : "s") + " (a verdict needs " +
               std::to_string(rule.min_samples) + " on each side)";
    return c;
  }
  if (base <= 0) {
    c.reason = "the baseline median is zero";
    return c;
  }
  const double rel = (now - base) / base * 100;
  c.change_pct = rel;
  const Change direction = rel > 0 ? Change::slower : Change::faster;
  if (with_samples) {
    c.method = "U test";
    c.p_value = mann_whitney_p(b.samples_us, n.samples_us);
  } else {
    c.method = "min/median";
  }
  if (std::fabs(rel) < rule.min_effect_pct) {
    c.change = Change::same;
    c.reason = "median within " + fmt_num(rule.min_effect_pct) + " % of the baseline";
    return c;
  }
  if (with_samples) {
    const double alpha = rule.alpha / static_cast<double>(std::max<std::size_t>(tests, 1));
    const bool significant = *c.p_value < alpha;
    c.change = significant ? direction : Change::uncertain;
    c.reason = (significant ? "significant (" : "not significant (") + p_str(*c.p_value) + ", alpha " + fmt_num(rule.alpha) +
               (tests > 1 ? "/" + std::to_string(tests) : "") + ")";
    return c;
  }
  // No samples: the distributions must separate, judged by their robust ends. Slower means tonight's
  // fastest iteration is slower than the baseline's median (faster: the reverse). Outliers can only
  // keep a verdict back: slow ones move neither the minimum nor the median.
  const bool apart = direction == Change::slower ? n.time_us.min > base : b.time_us.min > now;
  c.change = apart ? direction : Change::uncertain;
  c.reason = direction == Change::slower
                 ? "fastest iteration now " + fmt_num(n.time_us.min) + (apart ? " us > " : " us <= ") + "baseline median"
                 : "baseline fastest " + fmt_num(b.time_us.min) + (apart ? " us > " : " us <= ") + "median now";
  c.reason += apart ? "; no per-iteration samples" : " (overlap); no per-iteration samples";
  return c;
}

std::size_t count(const BaselineComparison& c, Change which) {
  return static_cast<std::size_t>(std::count_if(c.rows.begin(), c.rows.end(), [&](const Comparison& r) { return r.change == which; }));
}

std::string summary(const BaselineComparison& c) {
  std::ostringstream os;
  os << c.rows.size() << " figures: " << count(c, Change::same) << " SAME, " << count(c, Change::faster) << " FASTER, "
     << count(c, Change::slower) << " SLOWER, " << count(c, Change::uncertain) << " UNCERTAIN";
  if (c.new_figures) os << "; " << c.new_figures << " new without a baseline";
  return os.str();
}

std::string opt_num(const std::optional<double>& v) { return v ? fmt_num(*v) : "-"; }

struct Cells {
  std::string key, base, now, change, test, verdict, reason;
};

Cells cells(const Comparison& r) {
  return {r.key,   opt_num(r.base_p50_us), opt_num(r.now_p50_us), r.change_pct ? pct(*r.change_pct) : "-",
          r.method.empty() ? "-" : r.method, to_string(r.change), r.reason};
}

}  // namespace

BaselineComparison compare(const Baseline& base, const Baseline& now) {
  BaselineComparison out;
  std::size_t tests = 0;
  for (const auto& [key, b] : base.figures)
    if (const auto it = now.figures.find(key); it != now.figures.end() && testable(b, it->second, base.rule)) ++tests;
  // Rows in reading order: suite, name, variant, dtype, op, then sizes by number, ranks and host.
  std::vector<const std::pair<const std::string, BaselineFigure>*> order;
  for (const auto& entry : base.figures) order.push_back(&entry);
  std::sort(order.begin(), order.end(), [](const auto* x, const auto* y) {
    const auto& a = x->second;
    const auto& b = y->second;
    return std::tie(a.suite, a.name, a.variant, a.dtype, a.op, a.bytes, a.ranks, a.host, x->first) <
           std::tie(b.suite, b.name, b.variant, b.dtype, b.op, b.bytes, b.ranks, b.host, y->first);
  });
  for (const auto* entry : order) {
    const auto& [key, b] = *entry;
    const auto it = now.figures.find(key);
    if (it == now.figures.end()) {
      Comparison c;
      c.key = key;
      c.base_p50_us = b.time_us.p50;
      c.reason = "not measured in this run";
      out.rows.push_back(c);
      continue;
    }
    out.rows.push_back(judge(key, b, it->second, base.rule, tests));
  }
  for (const auto& [key, f] : now.figures)
    if (!base.figures.count(key)) ++out.new_figures;
  return out;
}

int regression_exit_code(const BaselineComparison& c) { return count(c, Change::slower) ? 1 : 0; }

void attach_comparison(Report& report, const std::string& file, const CompareRule& rule, const BaselineComparison& c) {
  json rows = json::array();
  for (const auto& r : c.rows) {
    json row{{"figure", r.key}, {"change", to_string(r.change)}, {"method", r.method}, {"reason", r.reason}};
    row["base_p50_us"] = r.base_p50_us ? json(*r.base_p50_us) : json(nullptr);
    row["now_p50_us"] = r.now_p50_us ? json(*r.now_p50_us) : json(nullptr);
    row["change_pct"] = r.change_pct ? json(*r.change_pct) : json(nullptr);
    row["p_value"] = r.p_value ? json(*r.p_value) : json(nullptr);
    rows.push_back(row);
  }
  report.extra["baseline"] = json{
      {"file", file},
      {"rule", {{"min_samples", rule.min_samples}, {"alpha", rule.alpha}, {"min_effect_pct", rule.min_effect_pct}}},
      {"rows", rows},
      {"new_figures", c.new_figures},
      {"summary", summary(c)}};
}

std::string render_comparison_markdown(const BaselineComparison& c) {
  std::ostringstream os;
  os << "| Figure | Baseline p50 (us) | Now p50 (us) | Change | Test | Verdict | Reason |\n"
        "|---|---|---|---|---|---|---|\n";
  for (const auto& r : c.rows) {
    const auto x = cells(r);
    os << "| " << md_escape(x.key) << " | " << x.base << " | " << x.now << " | " << x.change << " | " << x.test << " | **"
       << x.verdict << "** | " << md_escape(x.reason) << " |\n";
  }
  os << "\n" << summary(c) << "\n";
  return os.str();
}

std::string render_comparison_console(const BaselineComparison& c) {
  std::vector<Cells> rows{{"Figure", "Base p50 us", "Now p50 us", "Change", "Test", "Verdict", "Reason"}};
  for (const auto& r : c.rows) rows.push_back(cells(r));
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
  os << summary(c) << "\n";
  return os.str();
}

}  // namespace gpunet::report
