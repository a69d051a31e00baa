#include "bench/core/step_progress.hpp"

#include <algorithm>

#include "bench/core/suite.hpp"

namespace gpunet::bench {

StepProgress::StepProgress(const SuiteContext& ctx)
    : StepProgress(ctx.mpi.is_root() ? ctx.progress_planned : Planned([](const std::string&, int, int, double) {}),
                   ctx.mpi.is_root() ? ctx.progress : Paced([](const std::string&, int64_t, int, int) {})) {}

void StepProgress::plan(int steps, double seconds_each) {
  if (steps <= 0) return;
  total_ += steps;
  planned_left_s_ += steps * std::max(0.0, seconds_each);
}

void StepProgress::next(double planned_s) {
  planned_left_s_ = std::max(0.0, planned_left_s_ - step_planned_s_);  // the step before has ended
  if (started_ >= total_) plan(1, planned_s);
  step_planned_s_ = std::max(0.0, planned_s);
  ++started_;
}

void StepProgress::start_planned(const std::string& step, double planned_s) {
  next(planned_s);
  planned_(step, started_ - 1, total_, planned_left_s_);
}

void StepProgress::start_paced(const std::string& step, int64_t bytes) {
  next(0);
  paced_(step, bytes, started_ - 1, total_);
}

}  // namespace gpunet::bench
