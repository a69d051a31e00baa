#include "bench/suites/tcp/flow_cpu.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <sys/time.h>

#include <fstream>
#include <sstream>
#include <string>

namespace gpunet::bench::tcp {

namespace {

double timeval_seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6; }

}  // namespace

ThreadCpuTimes thread_cpu_times() {
  rusage ru{};
  if (::getrusage(RUSAGE_THREAD, &ru) != 0) return {};
  return {timeval_seconds(ru.ru_utime), timeval_seconds(ru.ru_stime)};
}

int current_cpu() { return ::sched_getcpu(); }

bool pinned_to_one_cpu() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return ::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1;
}

FlowCpu flow_cpu(const ThreadCpuTimes& before, const ThreadCpuTimes& after, double wall_s, int cpu, bool pinned) {
  FlowCpu c;
  c.cpu = cpu;
  c.pinned = pinned;
  if (!(wall_s > 0)) return c;
  c.measured = true;
  const auto pct = [&](double from, double to) { return to > from ? (to - from) / wall_s * 100.0 : 0.0; };
  c.user_pct = pct(before.user_s, after.user_s);
  c.sys_pct = pct(before.sys_s, after.sys_s);
  return c;
}

std::optional<CoreTicks> core_ticks(int cpu) {
  if (cpu < 0) return std::nullopt;
  std::ifstream in("/proc/stat");
  const std::string want = "cpu" + std::to_string(cpu);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name != want) continue;
    uint64_t v[8] = {};  // user nice system idle iowait irq softirq steal
    for (auto& x : v) fields >> x;
    CoreTicks t;
    for (const auto x : v) t.total += x;
    t.busy = t.total - v[3] - v[4];
    return t;
  }
  return std::nullopt;
}

std::optional<double> core_busy_pct(const CoreTicks& before, const CoreTicks& after) {
  if (after.total <= before.total || after.busy < before.busy) return std::nullopt;
  return static_cast<double>(after.busy - before.busy) / static_cast<double>(after.total - before.total) * 100.0;
}

void FlowCpuWindow::open(Clock::time_point now) {
  if (opened_) return;
  opened_ = now;
  if (pinned_to_one_cpu()) {
    pinned_cpu_ = current_cpu();
    core_before_ = core_ticks(pinned_cpu_);
  }
  before_ = thread_cpu_times();
}

void FlowCpuWindow::close(Clock::time_point now) {
  if (!opened_ || closed_) return;
  closed_ = true;
  const ThreadCpuTimes after = thread_cpu_times();
  result_ = flow_cpu(before_, after, std::chrono::duration<double>(now - *opened_).count(), current_cpu(), pinned_to_one_cpu());
  if (core_before_ && result_.pinned && result_.cpu == pinned_cpu_)
    if (const auto core_after = core_ticks(pinned_cpu_)) result_.core_busy_pct = core_busy_pct(*core_before_, *core_after);
}

}  // namespace gpunet::bench::tcp
