// A suite's steps on the console's progress line: the steps it plans, counted as each starts, so the
// line reads "step  k/n (x%)  about Ns left". Two kinds of step:
//  - planned: the suite knows how long each step should last (a time budget, a fixed duration); the
//    time left is the planned time of the steps not yet ended, counted down by the console;
//  - paced: it does not (an adaptive iteration count); the console estimates the time left from the
//    pace of the steps so far.
// A step started beyond the plan (a re-test decided during the run) adds itself to the total. Only
// rank 0 shows progress; the SuiteContext constructor makes every other rank's calls do nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace gpunet::bench {

struct SuiteContext;

class StepProgress {
 public:
  using Planned = std::function<void(const std::string& step, int done, int total, double remaining_s)>;
  using Paced = std::function<void(const std::string& step, int64_t bytes, int done, int total)>;

  StepProgress(Planned planned, Paced paced) : planned_(std::move(planned)), paced_(std::move(paced)) {}
  explicit StepProgress(const SuiteContext& ctx);

  // `steps` more steps, each planned to last `seconds_each` (0 for paced steps).
  void plan(int steps, double seconds_each = 0);
  // A step that should last `planned_s` starts (the one before has ended).
  void start_planned(const std::string& step, double planned_s);
  // A step of unknown length starts (`bytes`: its message size, 0 when none).
  void start_paced(const std::string& step, int64_t bytes = 0);

  int started() const { return started_; }
  int total() const { return total_; }
  double planned_left_s() const { return planned_left_s_; }

 private:
  void next(double planned_s);  // counts the step in, and beyond the plan adds it

  Planned planned_;
  Paced paced_;
  int total_ = 0, started_ = 0;
  double planned_left_s_ = 0, step_planned_s_ = 0;
};

}  // namespace gpunet::bench
