// Baseline: keys, and the noise-aware comparison on generated runs: noise that must not be called a
// regression, and regressions that must be. The file: test_baseline_file.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/support/baseline_runs.hpp"
#include "tests/support/judged_markdown.hpp"
#include "report/judge/baseline.hpp"
#include "report/judge/baseline_stats.hpp"
#include "report/model/json_parse.hpp"
#include "report/model/json_unique_keys.hpp"
#include "report/model/stats.hpp"

using namespace gpunet::report;
using gpunet::json;
using namespace gpunet::test_support;

TEST(Baseline, KeysAreMetricSubjectAndParameters) {
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
  const auto base = make_base(rep);
  std::vector<std::string> keys;
  for (const auto& [k, f] : base.figures) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"mpi/allreduce/1024B/np4 p50", "pcie/h2d/4096B p50 node-a",
                                             "pcie/h2d/4096B p50 node-b", "pcie/h2d/4096B p50 node-b #2"}));
}

namespace {

// A TCP flow of `gbps` between two hosts, its timeline around that rate; `received` bytes vary by run.
Record flow(const std::string& src, const std::string& dst, double gbps, int64_t received, const std::string& kind = "matrix") {
  Record r;
  r.suite = "tcp", r.name = "bandwidth", r.variant = kind, r.bytes = received, r.ranks = 4, r.host = dst;
  r.extra = json{{"src_host", src}, {"dst_host", dst}, {"goodput_Gbps", gbps}, {"link", {{"iface", "eth0"}}}};
  std::vector<double> timeline;
  for (int i = 0; i < 20; ++i) timeline.push_back(gbps * (1 + 0.01 * ((i * 7) % 5 - 2)));
  r.extra["timeline_Gbps"] = timeline;
  return r;
}

Report flows(double node3_gbps, int64_t received) {
  Report rep;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      if (i != j) {
        const bool slow = i == 3 || j == 3;
        rep.results.push_back(flow("n" + std::to_string(i), "n" + std::to_string(j), slow ? node3_gbps : 0.95, received + i * 7 + j));
      }
  return rep;
}

}  // namespace

TEST(Baseline, TcpFlowsAreKeyedByPairNotByBytesReceived) {
  const auto a = make_base(flows(0.95, 240000000));
  const auto b = make_base(flows(0.95, 239000000));
  ASSERT_EQ(a.figures.size(), 12u);
  for (const auto& [key, f] : a.figures) {
    EXPECT_TRUE(b.figures.count(key)) << key;
    EXPECT_TRUE(f.higher_is_better);
    EXPECT_EQ(f.samples_from, "timeline");
    EXPECT_EQ(f.samples.size(), 20u);
  }
  EXPECT_TRUE(a.figures.count("tcp/bandwidth/matrix goodput_Gbps n0 -> n3"));
}

TEST(Baseline, FallingGoodputIsSlowerOnlyOnItsPairs) {
  // Node 3's link at half rate: every pair with n3 SLOWER, no other; a rise is FASTER, not SLOWER.
  const auto base = make_base(flows(0.95, 240000000));
  const auto c = compare(base, make_base(flows(0.47, 120000000)));
  ASSERT_EQ(c.rows.size(), 12u);
  for (const auto& r : c.rows) {
    const bool with3 = r.key.find("n3") != std::string::npos;
    EXPECT_EQ(r.change, with3 ? Change::slower : Change::same) << r.key << ": " << r.reason;
    if (with3) {
      EXPECT_EQ(r.method, "U test");
    }
  }
  EXPECT_EQ(regression_exit_code(c), 1);
  const auto up = compare(make_base(flows(0.47, 1)), make_base(flows(0.95, 1)));
  EXPECT_EQ(count(up, Change::faster), 6u);
  EXPECT_EQ(count(up, Change::slower), 0u);
}

TEST(Baseline, APairsCleanRetestOutranksItsContendedMatrixFigure) {
  // Tonight n0 -> n1 ran at 0.40 Gb/s in the matrix (beside other flows) and at 0.94 when re-tested
  // alone, which passed: the comparison judges 0.94 and says so. A re-test that confirmed the pair
  // slow changes nothing: its matrix figure stays the one judged.
  const auto base = make_base(flows(0.95, 1));
  Report tonight = flows(0.95, 1);
  for (auto& r : tonight.results)
    if (r.extra["src_host"] == "n0" && (r.extra["dst_host"] == "n1" || r.extra["dst_host"] == "n2")) {
      r.extra["goodput_Gbps"] = 0.40;
      r.extra["timeline_Gbps"] = std::vector<double>(20, 0.40);
    }
  auto clean = flow("n0", "n1", 0.94, 1, "retest");
  clean.extra["confirmed"] = false;
  auto confirmed = flow("n0", "n2", 0.41, 1, "retest");
  confirmed.extra["confirmed"] = true;
  tonight.results.insert(tonight.results.end(), {clean, confirmed});
  const auto now = make_base(tonight);
  const auto c = compare(base, now);
  const auto row = [&](const std::string& key) {
    const auto it = std::find_if(c.rows.begin(), c.rows.end(), [&](const Comparison& x) { return x.key == key; });
    return it == c.rows.end() ? Comparison{} : *it;
  };
  const auto n01 = row("tcp/bandwidth/matrix goodput_Gbps n0 -> n1");
  EXPECT_EQ(n01.change, Change::same) << n01.reason;
  EXPECT_DOUBLE_EQ(n01.now_value.value_or(0), 0.94);
  EXPECT_EQ(n01.reason.rfind("judged on the re-test of the pair, 0.94 Gb/s, not the matrix figure 0.4 Gb/s measured beside other flows: ", 0), 0u)
      << n01.reason;
  const auto n02 = row("tcp/bandwidth/matrix goodput_Gbps n0 -> n2");
  EXPECT_EQ(n02.change, Change::slower) << n02.reason;
  EXPECT_EQ(n02.reason.find("re-test"), std::string::npos) << n02.reason;
  EXPECT_EQ(count(c, Change::slower), 1u);
}

TEST(Baseline, NoiseThresholdComesFromTheHistory) {
  // Without history the default spread (5 % for rates, x3) hides a 10 % drop; once rolled forward
  // over steady nights the learned spread is small and the same drop is SLOWER.
  CompareRule rule;
  auto base = make_base(flows(0.95, 1), rule);
  const auto tonight = make_base(flows(0.855, 1), rule);
  EXPECT_EQ(count(compare(base, tonight), Change::slower), 0u);
  for (double g : {0.951, 0.949}) base = make_base(flows(g, 1), rule, &base);
  const auto& f = base.figures.at("tcp/bandwidth/matrix goodput_Gbps n0 -> n3");
  EXPECT_EQ(f.history, (std::vector<double>{0.95, 0.951}));
  const auto spread = run_to_run_spread(f, rule);
  EXPECT_TRUE(spread.from_history);
  EXPECT_NEAR(spread.pct, 0.105, 0.01);
  const auto c = compare(base, tonight);
  EXPECT_EQ(count(c, Change::slower), 6u) << render_comparison_console(c);
  // A noisy history widens the threshold again: +-20 % nights make a 10 % drop SAME.
  auto noisy = make_base(flows(0.95, 1), rule);
  for (double g : {0.76, 1.14}) noisy = make_base(flows(g, 1), rule, &noisy);
  EXPECT_EQ(count(compare(noisy, tonight), Change::slower), 0u);
}

TEST(Baseline, SamplesMissingFallBackToTheSummaryAndSaySo) {
  auto a = flows(0.95, 1), b = flows(0.47, 1);
  for (auto* rep : {&a, &b})
    for (auto& r : rep->results) r.extra.erase("timeline_Gbps");
  const auto c = compare(make_base(a), make_base(b));
  const auto it = std::find_if(c.rows.begin(), c.rows.end(), [](const auto& r) { return r.change == Change::slower; });
  ASSERT_NE(it, c.rows.end());
  EXPECT_EQ(it->method, "summary");
  EXPECT_NE(it->reason.find("no samples: judged on the summary value alone"), std::string::npos) << it->reason;
}

TEST(Baseline, NoiseIsNotARegression) {
  // Same distributions, other seeds, and slow outlier iterations in the big runs: nothing may be
  // called SLOWER or FASTER; the well-sampled, quiet figures must be SAME.
  const auto base = make_base(run(11));
  for (uint64_t seed : {12, 13, 14, 15}) {
    const auto c = compare(base, make_base(run(seed, 5)));
    ASSERT_EQ(c.rows.size(), 48u);
    EXPECT_EQ(count(c, Change::slower), 0u) << "seed " << seed << "\n" << render_comparison_console(c);
    EXPECT_EQ(count(c, Change::faster), 0u) << "seed " << seed << "\n" << render_comparison_console(c);
    EXPECT_EQ(regression_exit_code(c), 0);
    for (const auto& r : c.rows) {
      const auto& f = base.figures.at(r.key);
      const int index = std::stoi(r.key.substr(r.key.find("case") + 4));
      if (f.samples_total >= 100 && index >= 18 && index < 30) {  // 100 and 1000 iterations at cv <= 5 %
        EXPECT_EQ(r.change, Change::same) << r.key << " " << r.reason;
      }
    }
  }
}

TEST(Baseline, ClearRegressionIsFlagged) {
  // A 25 % slower time is within the default run-to-run threshold (3 x 15 %) on the first night; with
  // a history of steady nights the learned spread is small and it is SLOWER.
  auto base = make_base(run(21));
  const int slow = 24;  // 100 samples, cv 5 %
  EXPECT_EQ(count(compare(base, make_base(run(22, 5, slow, 1.25))), Change::slower), 0u);
  for (uint64_t seed : {23, 24}) base = make_base(run(seed), base.rule, &base);
  const auto c = compare(base, make_base(run(22, 5, slow, 1.25)));
  EXPECT_EQ(count(c, Change::slower), 1u) << render_comparison_console(c);
  EXPECT_EQ(regression_exit_code(c), 1);
  const auto it = std::find_if(c.rows.begin(), c.rows.end(), [](const auto& r) { return r.change == Change::slower; });
  ASSERT_NE(it, c.rows.end());
  EXPECT_EQ(it->key, "mpi/allreduce/case24/1024B/np4 p50");
  EXPECT_EQ(it->method, "U test");
  EXPECT_NEAR(*it->change_pct, 25, 5);
  EXPECT_LT(*it->p_value, 1e-6);

  const auto f = compare(base, make_base(run(22, 5, slow, 0.75)));
  EXPECT_EQ(count(f, Change::faster), 1u);
  EXPECT_EQ(count(f, Change::slower), 0u);
  EXPECT_EQ(regression_exit_code(f), 0);
}

namespace {

// An all-pairs matrix of `nodes` whose flows have 5 timeline samples each (0.5 s flows at 0.1 s
// intervals) with 3 % noise; node `slow` at `factor` of the rate. Pair n1 -> n2's samples, when
// `overlap`, are halved but for one sample at the old rate.
Report short_flows(int nodes, uint64_t seed, int slow = -1, double factor = 1, bool overlap = false) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.03);
  Report rep;
  for (int i = 0; i < nodes; ++i)
    for (int j = 0; j < nodes; ++j) {
      if (i == j) continue;
      const double gbps = (i == slow || j == slow ? factor : 1.0) * 0.95;
      Record r = flow("n" + std::to_string(i), "n" + std::to_string(j), gbps, 1000);
      std::vector<double> timeline;
      for (int k = 0; k < 5; ++k) timeline.push_back(gbps * (1 + noise(rng)));
      if (overlap && i == 1 && j == 2) timeline = {0.45, 0.46, 0.47, 0.48, 0.96};
      r.extra["timeline_Gbps"] = timeline;
      r.extra["goodput_Gbps"] = median_of(timeline);
      rep.results.push_back(r);
    }
  return rep;
}

}  // namespace

TEST(Baseline, FewSamplesAmongManyFiguresAreJudgedOnWhetherTheyOverlap) {
  // 20 nodes, 380 figures of 5 samples: the U test can reach p = 0.0122 at best, never 0.01/380.
  // Before, node 7 at half its rate read UNCERTAIN on every pair and the run exited 0.
  const auto base = make_base(short_flows(20, 1));
  ASSERT_EQ(base.figures.size(), 380u);
  EXPECT_NEAR(mann_whitney_smallest_p(5, 5), 0.0122, 0.0001);
  EXPECT_LT(mann_whitney_smallest_p(20, 20), 1e-6);

  const auto c = compare(base, make_base(short_flows(20, 2, 7, 0.5, true)));
  std::size_t slower = 0;
  for (const auto& r : c.rows) {
    const bool with7 = std::find(r.hosts.begin(), r.hosts.end(), "n7") != r.hosts.end();
    if (r.hosts == std::vector<std::string>{"n1", "n2"}) {
      EXPECT_EQ(r.change, Change::uncertain) << r.reason;  // one sample at the old rate: they overlap
      EXPECT_NE(r.reason.find("they overlap"), std::string::npos) << r.reason;
      continue;
    }
    EXPECT_EQ(r.change, with7 ? Change::slower : Change::same) << r.key << ": " << r.reason;
    if (with7) {
      ++slower;
      EXPECT_EQ(r.method, "separation");
      EXPECT_NE(r.reason.find("5 and 5 samples are too few for the U test to reach alpha 0.01/380 (at best p=0.0122)"),
                std::string::npos) << r.reason;
    }
  }
  EXPECT_EQ(slower, 38u);
  EXPECT_EQ(regression_exit_code(c), 1);

  // Unchanged reruns, other noise: nothing SLOWER or FASTER.
  for (uint64_t seed : {3, 4, 5, 6}) {
    const auto again = compare(base, make_base(short_flows(20, seed)));
    EXPECT_EQ(count(again, Change::slower) + count(again, Change::faster), 0u) << "seed " << seed;
  }
  // A rise of the slow node's pairs is FASTER, not SLOWER.
  const auto up = compare(make_base(short_flows(20, 1, 7, 0.5)), make_base(short_flows(20, 2)));
  EXPECT_EQ(count(up, Change::faster), 38u);
  EXPECT_EQ(count(up, Change::slower), 0u);
}

TEST(Baseline, ASingleNoisySampleNeverDecides) {
  Report a, b;
  a.results.push_back(record("allreduce", 1024, {10}));
  b.results.push_back(record("allreduce", 1024, {100}));
  a.results.push_back(record("allgather", 1024, {10, 10.1, 9.9}));
  b.results.push_back(record("allgather", 1024, {30, 30.1, 29.9}));
  const auto c = compare(make_base(a), make_base(b));
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
    CompareRule rule;
    rule.default_time_spread_pct = 1;  // the threshold is min_effect_pct (5 %)
    return compare(make_base(a, rule), make_base(b, rule)).rows.at(0);
  };
  auto r = pair(115, 120);
  EXPECT_EQ(r.change, Change::slower) << r.reason;
  EXPECT_EQ(r.method, "min/median");
  EXPECT_EQ(r.reason, "fastest iteration now 115 us > baseline median; no per-iteration samples: judged on the summary");
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
  const auto base = make_base(a);
  const auto c = compare(base, make_base(b));
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0].change, Change::uncertain);
  EXPECT_EQ(c.rows[0].reason, "not measured in this run");
  EXPECT_EQ(c.new_figures, 2u);
  attach_comparison(b, "base.json", base.rule, c);
  EXPECT_EQ(b.extra["baseline"]["rows"].size(), 3u);
  EXPECT_EQ(b.extra["baseline"]["rows"][0]["change"], "UNCERTAIN");
  EXPECT_TRUE(b.extra["baseline"]["rows"][0]["now"].is_null());
  Judgement judged;
  judged.comparison = c;
  const auto md = gpunet::test_support::judged_markdown(Report{}, judged);
  EXPECT_NE(md.find("| mpi/allreduce/case0/1024B/np4 p50 |"), std::string::npos) << md;
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

namespace {

// A ping-pong's half round trips on a 2-core machine: a share `fast` wakes on the same core (~3 us),
// the rest on the other (~30 us); `added_us` lengthens every one of them (a slower path).
Report ping_pong(uint64_t seed, double fast, double added_us) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> half;
  for (int i = 0; i < 2000; ++i) half.push_back(added_us + (u(rng) < fast ? 3.0 : 30.0) * (0.9 + 0.2 * u(rng)));
  Report rep;
  Record r;
  r.suite = "tcp", r.name = "latency", r.variant = "ping-pong", r.bytes = 14, r.ranks = 2, r.host = "n0";
  r.time_us = compute_stats(half);
  r.figure = time_figure("tcp.latency", r.time_us.p50, pair_subject("n0", 0, "n1", 1));
  r.figure->samples = quantile_summary(half, kMaxStoredSamples);
  rep.results.push_back(r);
  return rep;
}

}  // namespace

TEST(Baseline, ABimodalLatencyWhoseMixMovesIsNotSlowerButAWholeShiftIs) {
  const auto base = make_baseline(ping_pong(1, 0.55, 0));  // the median at the fast mode's upper end
  // Tonight most wake-ups cross cores: the median jumps to the slow mode, the range stays.
  auto c = compare(base, make_baseline(ping_pong(2, 0.2, 0))).rows.at(0);
  EXPECT_GT(*c.change_pct, 100) << c.reason;
  EXPECT_NE(c.change, Change::slower) << c.reason;
  EXPECT_NE(c.reason.find("half the width of the baseline's own p10-p90 band"), std::string::npos) << c.reason;
  // With a history of nights in the fast mode the spread is small; the band check still holds it.
  const auto night1 = make_baseline(ping_pong(5, 0.55, 0));
  const auto night2 = make_baseline(ping_pong(6, 0.55, 0), {}, &night1);
  const auto rolled = make_baseline(ping_pong(7, 0.55, 0), {}, &night2);
  c = compare(rolled, make_baseline(ping_pong(2, 0.2, 0))).rows.at(0);
  EXPECT_EQ(c.change, Change::uncertain) << c.reason;
  EXPECT_NE(c.reason.find("within the baseline's own band (its p90 "), std::string::npos) << c.reason;
  // The path itself got slower: every half round trip takes 150 us more (past the band-widened
  // threshold of a figure this bimodal: its p90 is 10x its p10).
  c = compare(base, make_baseline(ping_pong(3, 0.55, 150))).rows.at(0);
  EXPECT_EQ(c.change, Change::slower) << c.reason;
  // And the same mix again is the same.
  EXPECT_EQ(compare(base, make_baseline(ping_pong(4, 0.55, 0))).rows.at(0).change, Change::same);
}

TEST(Baseline, EveryBatchOfARateFigureIsARateInItsUnit) {
  // A rate computed from the mean time: each batch did the same work in its own mean time.
  EXPECT_EQ(rates_per_batch(10, 100, {100, 200, 50}), (std::vector<double>{10, 5, 20}));
  EXPECT_TRUE(rates_per_batch(10, 0, {100}).empty());
  Record r;
  r.suite = "mpi", r.name = "allreduce", r.bytes = 1 << 20, r.ranks = 4, r.dtype = "float", r.op = "sum";
  r.time_us = compute_stats({100, 110, 90, 100, 100});
  r.busbw_GBps = 15;
  r.figure = collective_figure("mpi", "host", r, cluster_subject(2), {100, 110, 90, 100, 100});
  Report rep;
  rep.results.push_back(r);
  const auto b = make_baseline(rep);
  ASSERT_EQ(b.figures.size(), 1u);
  const auto& f = b.figures.begin()->second;
  EXPECT_EQ(b.figures.begin()->first, "mpi/allreduce/float/sum/1048576B/np4 busbw_GBps");
  EXPECT_TRUE(f.higher_is_better);
  EXPECT_EQ(f.unit, "GB/s");
  EXPECT_EQ(f.samples_from, "batches");
  ASSERT_EQ(f.samples.size(), 5u);
  EXPECT_NEAR(f.samples.front(), 15 * 100.0 / 110, 1e-9);  // the slowest batch, lowest rate
}

TEST(Baseline, LearnNoiseAddsOnlyTheSameFiguresToTheHistory) {
  auto base = make_base(run(31));
  const auto now_run = make_base(run(32, 5, 24, 1.5));  // case 24 50 % slower: not SAME
  const auto c = compare(base, now_run);
  const auto learned = learn_noise(base, now_run, c);
  ASSERT_EQ(learned.figures.size(), base.figures.size());
  size_t grown = 0;
  for (const auto& row : c.rows) {
    const auto& before = base.figures.at(row.key);
    const auto& after = learned.figures.at(row.key);
    EXPECT_EQ(after.value, before.value) << row.key;  // the reference stays
    if (row.change == Change::same) {
      ASSERT_EQ(after.history.size(), before.history.size() + 1) << row.key;
      EXPECT_EQ(after.history.back(), now_run.figures.at(row.key).value);
      ++grown;
    } else {
      EXPECT_EQ(after.history, before.history) << row.key;
    }
  }
  EXPECT_GT(grown, 0u);
  EXPECT_LT(grown, c.rows.size());
  // Night after night the history fills, at most kMaxHistory values.
  Baseline b = base;
  for (uint64_t seed = 40; seed < 40 + kMaxHistory + 3; ++seed) {
    const auto n = make_base(run(seed));
    b = learn_noise(b, n, compare(b, n));
  }
  for (const auto& [key, f] : b.figures) EXPECT_LE(f.history.size(), kMaxHistory) << key;
}

// Two long sweeps that do not overlap give a p value far below what a reader accepts (1e-100): the
// comparison written into report.json must still read back.
TEST(BaselineCompare, AVanishingPValueIsWrittenAsANumberTheReadersAccept) {
  std::vector<double> low, high;
  for (int i = 0; i < 2000; ++i) {
    low.push_back(1.0 + i * 1e-6);
    high.push_back(2.0 + i * 1e-6);
  }
  const double p = mann_whitney_p(low, high);
  ASSERT_LT(p, kSmallestFileNumber);
  BaselineComparison c;
  Comparison row;
  row.key = "pair:a->b tcp goodput_Gbps";
  row.change = Change::slower;
  row.p_value = p;
  c.rows.push_back(row);
  Report rep;
  attach_comparison(rep, "base.json", CompareRule{}, c);
  const JsonParsed back = parse_json_text(json(rep.extra).dump());
  EXPECT_TRUE(back.ok()) << back.error;
}
