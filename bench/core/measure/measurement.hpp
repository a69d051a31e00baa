// The one measurement loop of the harness, with the clock as a strategy. Every timed figure of the
// mpi, rdma, nccl and pcie suites goes through measure(): a Step for the watchdog, warm-up excluded,
// an estimate agreed by every rank, an iteration count adapted to the budget and grouped in batches
// (batch_plan.hpp), a barrier before each timed block, one sample per batch, and the samples reduced
// across ranks. record_timing() puts the samples and how they were taken into a Record.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "bench/core/control.hpp"
#include "bench/core/measure/batch_plan.hpp"
#include "report/model/record.hpp"

namespace gpunet::bench::measure {

// A timer strategy: how to time a batch of iterations, and how the ranks that measure together
// meet and agree. A local timer (one process) has no-op barrier, agree and reduce.
struct Timer {
  std::string clock;        // what reads the time: MPI_Wtime, cudaEvent, steady_clock, ...
  double clock_cost_s = 0;  // cost (or resolution) of one reading
  std::function<double(int iters)> batch_s;                // runs iters iterations, timed as one: seconds
  std::function<void()> barrier = [] {};                   // before a timed block
  std::function<double(double)> agree_max = [](double x) { return x; };  // the largest value of all ranks
  std::function<void(std::vector<double>&)> reduce = [](std::vector<double>&) {};  // samples across ranks
};

struct Timing {
  std::vector<double> samples_us;  // per batch: mean time per iteration, reduced across ranks
  BatchPlan plan;
  std::string clock;
  gpunet::json to_json() const;  // {method, batches, iters_per_batch, iterations, clock}
};

struct Rules {
  int warmup_iters = 2;
  Budget budget;
  int fixed_batches = 0;  // > 0: exactly this many batches share budget.budget_s (plan_fixed_batches)
};

// Times `timer` under `rules` as step `step` (announced to the watchdog with `scope`).
Timing measure(ControlPlane& control, const std::string& step, StepScope scope, const Rules& rules, const Timer& timer);

// The loop alone, without the Step (for tests and callers that hold one).
Timing measure_loop(const Rules& rules, const Timer& timer);

// A timer for an operation that times itself: once_s() runs one iteration and returns its seconds
// (for example a copy timed by CUDA events); a batch is the sum of its iterations.
Timer self_timed(const std::string& clock, double clock_cost_s, const std::function<double()>& once_s);

// A timer on std::chrono::steady_clock around a batch of op().
Timer steady_clock_timer(const std::function<void()>& op);

// time_us from the samples, extra.samples_us (every sample) and extra.timing (how they were taken).
void record_timing(report::Record& rec, const Timing& t);
// The batch mean times record_timing stored (empty when none), for the figure's samples.
std::vector<double> batch_means_us(const report::Record& rec);

}  // namespace gpunet::bench::measure
