// Google Benchmark runs turned into ordinary Records: a BenchmarkReporter that, for each benchmark
// instance, takes its repetitions as the samples (per-iteration time of each repetition), computes
// the bandwidth from the bytes one iteration moves, and hands one Record to a callback. An iteration
// of a threaded benchmark is one iteration of every thread (together they cover bytes_per_iter).
#pragma once

#include <functional>
#include <map>
#include <string>

#include <benchmark/benchmark.h>
#include "common/json.hpp"

#include "report/model/record.hpp"

namespace gpunet::bench::node {

// What the reporter needs to know about a registered benchmark, keyed by its registered name.
struct BenchMeta {
  std::string suite = "node";
  std::string name;     // record name, e.g. membw_copy, pcie_h2d
  std::string variant;  // e.g. "numa0"; the reporter appends " N threads" for threaded runs
  int64_t bytes_per_iter = 0;
  gpunet::json extra = gpunet::json::object();
};

class RecordReporter : public benchmark::BenchmarkReporter {
 public:
  using Sink = std::function<void(report::Record)>;
  // base: a record with host, rank and ranks filled in.
  RecordReporter(report::Record base, const std::map<std::string, BenchMeta>& meta, Sink sink)
      : base_(std::move(base)), meta_(meta), sink_(std::move(sink)) {}

  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override;

 private:
  report::Record base_;
  const std::map<std::string, BenchMeta>& meta_;
  Sink sink_;
};

// Iterations of the whole benchmark in a Google Benchmark run with `threads` threads, whose
// run.iterations counts every thread's iterations (each thread's iteration covers its share).
int64_t whole_iterations(int64_t thread_iterations, int64_t threads);

// Pure part of the conversion, for tests: per-iteration seconds of each repetition -> the record.
report::Record record_from_repetitions(report::Record base, const BenchMeta& meta, int64_t threads,
                                       const std::vector<double>& seconds_per_iter, const std::vector<int64_t>& iterations);

}  // namespace gpunet::bench::node
