// The CPU a flow's thread spent on it, as iperf3 -V reports it: user and system time over the flow's
// measured window, as a share of that window's wall time, and the CPU the thread ran on at the end.
// Two getrusage(RUSAGE_THREAD) calls per flow end: negligible beside the flow.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace gpunet::bench::tcp {

// One end's share of its core over the flow: 100 % = one core busy the whole window.
struct FlowCpu {
  bool measured = false;
  double user_pct = 0;
  double sys_pct = 0;
  int cpu = -1;  // the CPU the thread ran on when the window closed, -1 when unknown
  bool pinned = false;  // the thread may run on that CPU alone (its affinity holds one CPU)
  // A pinned thread's CPU: how busy it was over the window with every task on it (/proc/stat), %.
  std::optional<double> core_busy_pct;
};

// One CPU's time from /proc/stat, in ticks: busy (all but idle and iowait) and total.
struct CoreTicks {
  uint64_t busy = 0;
  uint64_t total = 0;
};
std::optional<CoreTicks> core_ticks(int cpu);
// Pure: the busy share between two readings, %; none when no tick passed.
std::optional<double> core_busy_pct(const CoreTicks& before, const CoreTicks& after);

// CPU time of the calling thread so far, seconds.
struct ThreadCpuTimes {
  double user_s = 0;
  double sys_s = 0;
};
ThreadCpuTimes thread_cpu_times();
// The CPU the calling thread runs on now (sched_getcpu), -1 when unknown.
int current_cpu();
// Whether the calling thread's affinity allows exactly one CPU.
bool pinned_to_one_cpu();

// Pure: the share of `wall_s` spent between two readings. Not measured when the window is empty.
FlowCpu flow_cpu(const ThreadCpuTimes& before, const ThreadCpuTimes& after, double wall_s, int cpu, bool pinned);

// One end's window: opened when its data starts, closed when it ends; later calls do nothing.
class FlowCpuWindow {
 public:
  using Clock = std::chrono::steady_clock;
  void open(Clock::time_point now);
  void close(Clock::time_point now);
  const FlowCpu& result() const { return result_; }

 private:
  std::optional<Clock::time_point> opened_;
  ThreadCpuTimes before_;
  int pinned_cpu_ = -1;  // the one CPU the thread may run on when the window opened, else -1
  std::optional<CoreTicks> core_before_;
  bool closed_ = false;
  FlowCpu result_;
};

}  // namespace gpunet::bench::tcp
