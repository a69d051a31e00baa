// Generated runs for the baseline's tests: records filled as the suites fill them (the median time with
// its iterations, a TCP flow's goodput with its timeline), and runs of many figures of varied sample
// counts and noise.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "common/json.hpp"
#include "report/judge/baseline.hpp"
#include "report/model/stats.hpp"

namespace gpunet::test_support {

using report::Baseline;
using report::BaselineComparison;
using report::BaselineError;
using report::Change;
using report::CompareRule;
using report::Record;
using report::Report;

// Per-iteration times: log-normal around `median_us` with relative spread `cv`, plus `outliers`
// iterations 20x slower (a preempted rank, a retransmit).
inline std::vector<double> times(std::mt19937_64& rng, int n, double median_us, double cv, int outliers = 0) {
  std::normal_distribution<double> z(0.0, cv);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(median_us * std::exp(z(rng)));
  for (int i = 0; i < outliers && i < n; ++i) v[static_cast<std::size_t>(i) * 7 % v.size()] *= 20;
  return v;
}

inline Record record(const std::string& name, int64_t bytes, const std::vector<double>& samples, bool keep_samples = true) {
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

inline std::vector<double> numbers_in(const json& extra, const char* key) {
  std::vector<double> out;
  if (const auto it = extra.find(key); it != extra.end() && it->is_array())
    for (const auto& v : *it) out.push_back(v.get<double>());
  return out;
}

// The runs below are written as a suite fills a record's fields; a suite also sets the record's
// figure (report/model/figure.hpp), which is what the baseline reads. This sets it as the suites do: a TCP
// flow's goodput on its pair with its timeline, else the median time with its iterations.
inline Report figured(Report rep) {
  for (auto& r : rep.results) {
    if (r.extra.contains("goodput_Gbps")) {
      r.figure = rate_figure("tcp.goodput", r.extra["goodput_Gbps"].get<double>(), "Gb/s",
                             pair_subject(r.extra["src_host"].get<std::string>(), -1, r.extra["dst_host"].get<std::string>(), -1),
                             PathModel::tcp_flow);
      r.figure->parameters = {{"test", r.variant}};
      r.figure->samples = numbers_in(r.extra, "timeline_Gbps");
    } else if (r.time_us.samples > 0) {
      r.figure = time_figure(r.suite + "." + r.name + ".time", r.time_us.p50,
                             r.suite == "mpi" && r.ranks > 1 ? cluster_subject(1) : host_subject(r.host));
      r.figure->samples = numbers_in(r.extra, "samples_us");
    }
  }
  return rep;
}

inline Baseline make_base(const Report& rep, const CompareRule& rule = {}, const Baseline* previous = nullptr) {
  return make_baseline(figured(rep), rule, previous);
}

struct Case {
  int n;
  double cv;
};

// A run of many figures of varied sample counts and noise; `scale` multiplies the times of figure `which`.
inline Report run(uint64_t seed, int outliers = 0, int which = -1, double scale = 1.0) {
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

inline std::size_t count(const BaselineComparison& c, Change x) {
  return static_cast<std::size_t>(std::count_if(c.rows.begin(), c.rows.end(), [&](const auto& r) { return r.change == x; }));
}

inline std::string baseline_error_of(const std::string& text) {
  try {
    baseline_from_json(json::parse(text), "base.json");
  } catch (const BaselineError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace gpunet::test_support
