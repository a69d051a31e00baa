#include "bench/core/measure/measurement.hpp"

#include <algorithm>
#include <chrono>

#include "report/model/stats.hpp"

namespace gpunet::bench::measure {

namespace {

constexpr double kCheapProbe_s = 1e-3;  // an iteration this short is probed three times

}  // namespace

gpunet::json Timing::to_json() const {
  return {{"method", plan.batched() ? "batch" : "iteration"},
          {"batches", plan.batches},
          {"iters_per_batch", plan.iters_per_batch},
          {"iterations", plan.iterations()},
          {"clock", clock}};
}

Timing measure_loop(const Rules& rules, const Timer& timer) {
  if (rules.warmup_iters > 0) timer.batch_s(rules.warmup_iters);

  // One iteration estimates the cost; a cheap one is tried twice more and the fastest kept (a
  // preempted probe would otherwise stand for the whole figure); when the estimate is short against
  // the clock, a batch refines it. Every rank uses the slowest rank's estimate, so that all run the
  // same iterations (and decide the same way on the extra probes).
  timer.barrier();
  double local = timer.batch_s(1);
  double estimate = timer.agree_max(local);
  if (estimate < kCheapProbe_s) {
    for (int i = 0; i < 2; ++i) local = std::min(local, timer.batch_s(1));
    estimate = timer.agree_max(local);
  }
  const int probe = iterations_per_batch(estimate, timer.clock_cost_s);
  if (probe > 1) {
    timer.barrier();
    estimate = timer.agree_max(timer.batch_s(probe) / probe);
  }

  Timing t;
  t.clock = timer.clock;
  t.plan = rules.fixed_batches > 0 ? plan_fixed_batches(estimate, rules.fixed_batches, rules.budget.budget_s)
                                   : plan_batches(estimate, timer.clock_cost_s, rules.budget);
  t.samples_us.resize(static_cast<size_t>(t.plan.batches));
  const int k = t.plan.iters_per_batch;
  timer.barrier();
  for (double& s : t.samples_us) s = timer.batch_s(k) / k * 1e6;
  timer.reduce(t.samples_us);
  return t;
}

Timing measure(ControlPlane& control, const std::string& step, StepScope scope, const Rules& rules, const Timer& timer) {
  Step guard(control, step, scope);
  return measure_loop(rules, timer);
}

Timer self_timed(const std::string& clock, double clock_cost_s, const std::function<double()>& once_s) {
  Timer t;
  t.clock = clock;
  t.clock_cost_s = clock_cost_s;
  t.batch_s = [once_s](int iters) {
    double sum = 0;
    for (int i = 0; i < iters; ++i) sum += once_s();
    return sum;
  };
  return t;
}

Timer steady_clock_timer(const std::function<void()>& op) {
  Timer t;
  t.clock = "steady_clock";
  t.clock_cost_s = 3e-8;
  t.batch_s = [op](int iters) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) op();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  return t;
}

void record_timing(report::Record& rec, const Timing& t) {
  rec.time_us = report::compute_stats(t.samples_us);
  rec.extra["samples_us"] = t.samples_us;
  rec.extra["timing"] = t.to_json();
}

std::vector<double> batch_means_us(const report::Record& rec) {
  std::vector<double> out;
  if (const auto it = rec.extra.find("samples_us"); it != rec.extra.end() && it->is_array())
    for (const auto& v : *it)
      if (v.is_number()) out.push_back(v.get<double>());
  return out;
}

}  // namespace gpunet::bench::measure
