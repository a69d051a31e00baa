#include "bench/node/gbench_records.hpp"

#include "report/busbw.hpp"
#include "report/stats.hpp"

namespace gpunet::bench::node {

report::Record record_from_repetitions(report::Record base, const BenchMeta& meta, int64_t threads,
                                       const std::vector<double>& seconds_per_iter, const std::vector<int64_t>& iterations) {
  report::Record r = std::move(base);
  r.suite = meta.suite;
  r.name = meta.name;
  r.variant = meta.variant + (threads > 1 ? " " + std::to_string(threads) + " threads" : " 1 thread");
  r.bytes = meta.bytes_per_iter;
  std::vector<double> us, bw;
  for (double s : seconds_per_iter) {
    us.push_back(s * 1e6);
    bw.push_back(report::algbw_GBps(meta.bytes_per_iter, s));
  }
  r.time_us = report::compute_stats(us);
  r.algbw_GBps = report::algbw_GBps(meta.bytes_per_iter, r.time_us.mean * 1e-6);
  r.extra = meta.extra;
  r.extra["threads"] = threads;
  r.extra["repetitions_GBps"] = bw;
  r.extra["iterations"] = iterations;
  r.extra["samples_us"] = us;
  r.extra["timing"] = {{"method", "repetition"},
                       {"batches", seconds_per_iter.size()},
                       {"clock", "Google Benchmark"},
                       {"sample", "one per repetition: its mean time per iteration (all threads together)"}};
  return r;
}

int64_t whole_iterations(int64_t thread_iterations, int64_t threads) {
  return threads > 0 ? thread_iterations / threads : thread_iterations;
}

void RecordReporter::ReportRuns(const std::vector<Run>& runs) {
  std::vector<double> seconds;
  std::vector<int64_t> iterations;
  const BenchMeta* meta = nullptr;
  int64_t threads = 1;
  std::string error;
  for (const Run& run : runs) {
    if (run.run_type != Run::RT_Iteration) continue;
    const auto it = meta_.find(run.run_name.function_name);
    if (it == meta_.end()) continue;
    meta = &it->second;
    threads = run.threads;
    if (run.error_occurred) {
      error = run.error_message;
      continue;
    }
    // With t threads Google Benchmark sums the iterations of every thread and averages their wall
    // time; each thread's iteration is its slice, so t of them make one iteration of the record.
    const int64_t passes = whole_iterations(static_cast<int64_t>(run.iterations), run.threads);
    if (passes > 0) {
      seconds.push_back(run.real_accumulated_time / static_cast<double>(passes));
      iterations.push_back(passes);
    }
  }
  if (!meta) return;
  report::Record r = record_from_repetitions(base_, *meta, threads, seconds, iterations);
  if (!error.empty() || seconds.empty()) {
    r.status = report::Status::failed;
    r.reason = error.empty() ? "no repetition completed" : error;
  }
  sink_(std::move(r));
}

}  // namespace gpunet::bench::node
