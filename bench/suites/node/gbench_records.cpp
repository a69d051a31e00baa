#include "bench/suites/node/gbench_records.hpp"

#include <algorithm>

#include "report/model/busbw.hpp"
#include "report/model/stats.hpp"

namespace gpunet::bench::node {

namespace {

// node.membw.copy, node.pcie.h2d, ...: the record's rate, per repetition as its samples. A copy to
// one GPU is that GPU's figure, bounded by its PCIe link.
report::Figure figure_of(const report::Record& r, const BenchMeta& meta, std::vector<double> per_repetition_GBps) {
  std::string what = meta.name;
  std::replace(what.begin(), what.end(), '_', '.');
  const auto gpu = meta.extra.find("gpu_index");
  const bool on_gpu = gpu != meta.extra.end() && gpu->is_number_integer();
  const bool one_link = on_gpu && meta.extra.contains("pcie");
  report::Figure f = report::rate_figure(
      meta.suite + "." + what, r.algbw_GBps, "GB/s",
      on_gpu ? report::gpu_subject(r.host, gpu->get<int>()) : report::host_subject(r.host),
      one_link ? report::PathModel::pcie_link : report::PathModel::none);
  f.parameters = {{"bytes", std::to_string(r.bytes)}, {"variant", r.variant}};
  f.samples = std::move(per_repetition_GBps);
  return f;
}

}  // namespace

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
  r.figure = figure_of(r, meta, bw);
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
