// Baseline: keys, the file (round trip and malformed input), and the noise-aware comparison on
// generated runs: noise that must not be called a regression, and regressions that must be.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include <unistd.h>

#include "report/baseline.hpp"
#include "report/baseline_stats.hpp"
#include "report/stats.hpp"

using namespace gpunet::report;
using nlohmann::json;

namespace {

// Per-iteration times: log-normal around `median_us` with relative spread `cv`, plus `outliers`
// iterations 20x slower (a preempted rank, a retransmit).
std::vector<double> times(std::mt19937_64& rng, int n, double median_us, double cv, int outliers = 0) {
  std::normal_distribution<double> z(0.0, cv);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(median_us * std::exp(z(rng)));
  for (int i = 0; i < outliers && i < n; ++i) v[static_cast<std::size_t>(i) * 7 % v.size()] *= 20;
  return v;
}

Record record(const std::string& name, int64_t bytes, const std::vector<double>& samples, bool keep_samples = true) {
  Record r;
  r.suite = "mpi";
  r.name = name;
  r.bytes = bytes;
  r.ranks = 4;
  r.host = "node-a";
  r.time_us = compute_stats(samples);
  if (keep_samples) r.extra["samples_us"] = samples;
  return r;
}

struct Case {
  int n;
  double cv;
};

// A run of many figures of varied sample counts and noise; `scale` multiplies the times of figure `which`.
Report run(uint64_t seed, int outliers = 0, int which = -1, double scale = 1.0) {
  std::mt19937_64 rng(seed);
  Report rep;
  int i = 0;
  for (const Case c : {Case{5, 0.02}, Case{8, 0.3}, Case{20, 0.1}, Case{100, 0.05}, Case{1000, 0.02}, Case{300, 0.5}})
    for (int64_t bytes = 1024; bytes <= (int64_t{1} << 24); bytes *= 4, ++i)
      rep.results.push_back(record("allreduce", bytes, times(rng, c.n, 10.0 + static_cast<double>(bytes) / 1e4, c.cv, c.n >= 100 ? outliers : 0)));
  if (which >= 0)
    for (auto& s : rep.results[static_cast<std::size_t>(which)].extra["samples_us"]) s = s.get<double>() * scale;
  if (which >= 0) {
    auto& r = rep.results[static_cast<std::size_t>(which)];
    r.time_us = compute_stats(r.extra["samples_us"].get<std::vector<double>>());
  }
  for (std::size_t k = 0; k < rep.results.size(); ++k) rep.results[k].variant = "case" + std::to_string(k);
  return rep;
}

std::size_t count(const BaselineComparison& c, Change x) {
  return static_cast<std::size_t>(std::count_if(c.rows.begin(), c.rows.end(), [&](const auto& r) { return r.change == x; }));
}

std::string baseline_error_of(const std::string& text) {
  try {
    baseline_from_json(json::parse(text), "base.json");
  } catch (const BaselineError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(Baseline, KeysAddHostOnlyWhenNeeded) {
  Report rep;
  rep.results.push_back(record("allreduce", 1024, {1, 2, 3}));
  auto a = record("h2d", 4096, {1, 2, 3});
  a.suite = "pcie", a.dtype = "", a.ranks = 1;
  auto b = a;
  b.host = "node-b", b.rank = 1;
  auto c = b;
  c.rank = 2;  // a second GPU on node-b
  rep.results.insert(rep.results.end(), {a, b, c});
  Record skipped = record("alltoall", 1024, {1, 2, 3});
  skipped.status = Status::skipped;
  rep.results.push_back(skipped);
  const auto base = make_baseline(rep);
  std::vector<std::string> keys;
  for (const auto& [k, f] : base.figures) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"mpi/allreduce/1024B/np4", "pcie/h2d/4096B/np1@node-a",
                                             "pcie/h2d/4096B/np1@node-b#r1", "pcie/h2d/4096B/np1@node-b#r2"}));
}

TEST(Baseline, FileRoundTrip) {
  const auto base = make_baseline(run(1));
  const auto dir = std::filesystem::temp_directory_path() / ("gpunet_base_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "b.json").string();
  save_baseline(path, base);
  const auto back = load_baseline(path);
  EXPECT_EQ(baseline_to_json(back), baseline_to_json(base));
  EXPECT_EQ(back.figures.size(), 48u);
  // 1000 samples are stored as 256 quantiles; the total is kept.
  const auto& big = back.figures.at("mpi/allreduce/case32/1024B/np4");
  EXPECT_EQ(big.samples_us.size(), kMaxStoredSamples);
  EXPECT_EQ(big.samples_total, 1000);
  EXPECT_THROW(save_baseline((dir / "no/such/dir/b.json").string(), base), BaselineError);
  std::filesystem::remove_all(dir);
}

TEST(Baseline, MalformedFilesGiveOneLine) {
  EXPECT_EQ(baseline_error_of(R"({"schema_version": 1, "results": []})"),
            "base.json: gpunet_baseline: missing (this is not a gpunet-bench baseline; make one with --save-baseline)");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 2, "figures": {}})"),
            "base.json: gpunet_baseline: 2 is not supported (this program reads version 1)");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 1})"), "base.json: figures: missing (required)");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 1, "figures": {"k": {"suite": "mpi", "name": "x",
              "time_us": {"min": 1, "p50": "fast", "mean": 1, "p99": 1, "max": 1, "stddev": 0, "cv": 0, "samples": 3}}}})"),
            R"(base.json: figures.k.time_us.p50: expected a number, got "fast")");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 1, "figures": {"k": {"suite": "mpi", "name": "x", "colour": 1}}})"),
            "base.json: figures.k.colour: unknown key (known here: suite, name, variant, dtype, op, host, bytes, ranks, "
            "time_us, samples_us, samples_total)");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 1, "rule": {"alpha": 2}, "figures": {}})"),
            "base.json: rule.alpha: 2 is out of range (expected > 0 and <= 0.5)");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 1, "rule": {"min_samples": 1}, "figures": {}})"),
            "base.json: rule.min_samples: 1 is out of range (expected 3 to 1000000)");
  try {
    load_baseline("/nonexistent/base.json");
    FAIL();
  } catch (const BaselineError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/base.json: no such file (check the path)");
  }
}

TEST(Baseline, NoiseIsNotARegression) {
  // Same distributions, other seeds, and slow outlier iterations in the big runs: nothing may be
  // called SLOWER or FASTER; the well-sampled, quiet figures must be SAME.
  const auto base = make_baseline(run(11));
  for (uint64_t seed : {12, 13, 14, 15}) {
    const auto c = compare(base, make_baseline(run(seed, 5)));
    ASSERT_EQ(c.rows.size(), 48u);
    EXPECT_EQ(count(c, Change::slower), 0u) << "seed " << seed << "\n" << render_comparison_console(c);
    EXPECT_EQ(count(c, Change::faster), 0u) << "seed " << seed << "\n" << render_comparison_console(c);
    EXPECT_EQ(regression_exit_code(c), 0);
    for (const auto& r : c.rows) {
      const auto& f = base.figures.at(r.key);
      if (f.samples_total >= 100 && f.time_us.cv <= 0.1) {
        EXPECT_EQ(r.change, Change::same) << r.key << " " << r.reason;
      }
    }
  }
}

TEST(Baseline, ClearRegressionIsFlagged) {
  const auto base = make_baseline(run(21));
  const int slow = 24;  // 100 samples, cv 5 %
  const auto c = compare(base, make_baseline(run(22, 5, slow, 1.25)));
  EXPECT_EQ(count(c, Change::slower), 1u) << render_comparison_console(c);
  EXPECT_EQ(regression_exit_code(c), 1);
  const auto it = std::find_if(c.rows.begin(), c.rows.end(), [](const auto& r) { return r.change == Change::slower; });
  ASSERT_NE(it, c.rows.end());
  EXPECT_EQ(it->key, "mpi/allreduce/case24/1024B/np4");
  EXPECT_EQ(it->method, "U test");
  EXPECT_NEAR(*it->change_pct, 25, 5);
  EXPECT_LT(*it->p_value, 1e-6);

  const auto f = compare(base, make_baseline(run(22, 5, slow, 0.75)));
  EXPECT_EQ(count(f, Change::faster), 1u);
  EXPECT_EQ(count(f, Change::slower), 0u);
  EXPECT_EQ(regression_exit_code(f), 0);
}

TEST(Baseline, ASingleNoisySampleNeverDecides) {
  Report a, b;
  a.results.push_back(record("allreduce", 1024, {10}));
  b.results.push_back(record("allreduce", 1024, {100}));
  a.results.push_back(record("allgather", 1024, {10, 10.1, 9.9}));
  b.results.push_back(record("allgather", 1024, {30, 30.1, 29.9}));
  const auto c = compare(make_baseline(a), make_baseline(b));
  ASSERT_EQ(c.rows.size(), 2u);
  for (const auto& r : c.rows) EXPECT_EQ(r.change, Change::uncertain) << r.key;
  EXPECT_EQ(c.rows[1].reason, "only 1 timed iteration (a verdict needs 5 on each side)");
  EXPECT_EQ(regression_exit_code(c), 0);
}

TEST(Baseline, StatisticsOnlyRule) {
  // Without per-iteration samples the distributions must separate: tonight's fastest iteration slower
  // than the baseline median (or the reverse for FASTER).
  const auto pair = [](double now_min, double now_p50) {
    Report a, b;
    auto ra = record("allreduce", 1024, {1}, false), rb = ra;
    ra.time_us = TimeStats{95, 100, 130, 110, 5000, 500, 3.8, 50};  // a 5000 us outlier: cv 380 %
    rb.time_us = TimeStats{now_min, now_p50, now_p50, now_p50 * 1.1, now_p50 * 50, now_p50 * 4, 4, 50};
    a.results.push_back(ra), b.results.push_back(rb);
    return compare(make_baseline(a), make_baseline(b)).rows.at(0);
  };
  auto r = pair(115, 120);
  EXPECT_EQ(r.change, Change::slower) << r.reason;
  EXPECT_EQ(r.method, "min/median");
  EXPECT_EQ(r.reason, "fastest iteration now 115 us > baseline median; no per-iteration samples");
  r = pair(90, 120);  // a 20 % slower median, but the fast iterations still reach the old median
  EXPECT_EQ(r.change, Change::uncertain) << r.reason;
  EXPECT_EQ(pair(98, 103).change, Change::same);
  EXPECT_EQ(pair(70, 80).change, Change::faster);
  EXPECT_EQ(pair(60, 97).change, Change::same);
  EXPECT_EQ(pair(60, 90).change, Change::faster);  // the baseline's fastest (95 us) is slower than tonight's median
}

TEST(Baseline, MissingAndNewFiguresAttachAndRender) {
  Report a = run(31), b = run(32);
  a.results.resize(3);
  b.results.erase(b.results.begin());
  b.results.resize(4);
  const auto base = make_baseline(a);
  const auto c = compare(base, make_baseline(b));
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0].change, Change::uncertain);
  EXPECT_EQ(c.rows[0].reason, "not measured in this run");
  EXPECT_EQ(c.new_figures, 2u);
  attach_comparison(b, "base.json", base.rule, c);
  EXPECT_EQ(b.extra["baseline"]["rows"].size(), 3u);
  EXPECT_EQ(b.extra["baseline"]["rows"][0]["change"], "UNCERTAIN");
  EXPECT_TRUE(b.extra["baseline"]["rows"][0]["now_p50_us"].is_null());
  const auto md = render_comparison_markdown(c);
  EXPECT_NE(md.find("| mpi/allreduce/case0/1024B/np4 |"), std::string::npos) << md;
  EXPECT_NE(md.find("3 figures: 2 SAME, 0 FASTER, 0 SLOWER, 1 UNCERTAIN; 2 new without a baseline"), std::string::npos) << md;
}

TEST(BaselineStats, MannWhitneyAndQuantiles) {
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}), 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_p({3, 3, 3}, {3, 3, 3}), 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_p({}, {1}), 1.0);
  // Fully separated samples of 10: the exact two-sided p is 2/184756 ~ 1.1e-5; the normal
  // approximation gives ~1.8e-4.
  std::vector<double> lo, hi;
  for (int i = 0; i < 10; ++i) lo.push_back(i), hi.push_back(100 + i);
  EXPECT_LT(mann_whitney_p(lo, hi), 5e-4);
  EXPECT_DOUBLE_EQ(mann_whitney_p(lo, hi), mann_whitney_p(hi, lo));
  std::vector<double> many;
  for (int i = 0; i < 10000; ++i) many.push_back(i);
  const auto q = quantile_summary(many, 256);
  ASSERT_EQ(q.size(), 256u);
  EXPECT_NEAR(median_of(q), 5000, 40);
  EXPECT_EQ(quantile_summary({3, 1, 2}, 256), (std::vector<double>{1, 2, 3}));
}
