#include "bench/core/counters/host_load.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/small_file.hpp"

namespace gpunet::bench::counters {

namespace fs = std::filesystem;

std::optional<CpuTimes> parse_cpu_times(const std::string& proc_stat) {
  std::istringstream in(proc_stat);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu ", 0) != 0) continue;
    std::istringstream f(line.substr(4));
    // user nice system idle iowait irq softirq steal (guest times are already in user and nice)
    uint64_t v[8] = {};
    int n = 0;
    while (n < 8 && f >> v[n]) ++n;
    if (n < 4) return std::nullopt;
    CpuTimes t;
    for (int i = 0; i < n; ++i) t.total += v[i];
    t.idle = v[3] + v[4];
    t.steal = v[7];
    t.irq = v[5] + v[6];
    return t;
  }
  return std::nullopt;
}

namespace {

// utime + stime of /proc/PID/stat, 0 when unreadable (a process that just ended).
uint64_t process_ticks(const fs::path& stat) {
  const std::string text = read_small_file(stat).value_or("");
  const auto close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return 0;
  std::istringstream f(text.substr(close + 1));
  std::string field;
  uint64_t utime = 0, stime = 0;
  for (int i = 3; i <= 15 && f >> field; ++i) {  // field 3 is the state; 14 utime, 15 stime
    if (i == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (i == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  return utime + stime;
}

// The CPU time of this executable's processes, and of each other process with an executable.
void process_times(const fs::path& proc, LoadSnapshot& s) {
  std::error_code ec;
  const auto self = fs::read_symlink(proc / "self" / "exe", ec);
  if (ec) return;
  for (const auto& e : fs::directory_iterator(proc, ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code link_ec;
    const auto exe = fs::read_symlink(e.path() / "exe", link_ec);
    if (link_ec) continue;  // a kernel thread, or a process this user may not read
    const uint64_t ticks = process_ticks(e.path() / "stat");
    if (exe == self) s.own_ticks += ticks;
    else s.others_ticks[std::stoi(name)] = ticks;
  }
}

// The CPU time other processes spent between the snapshots: a process new at the end (or whose PID was
// reused) spent all of its own.
double others_between(const LoadSnapshot& before, const LoadSnapshot& after) {
  double sum = 0;
  for (const auto& [pid, ticks] : after.others_ticks) {
    const auto it = before.others_ticks.find(pid);
    sum += static_cast<double>(it != before.others_ticks.end() && it->second <= ticks ? ticks - it->second : ticks);
  }
  return sum;
}

}  // namespace

LoadSnapshot take_load_snapshot(const std::string& proc_root) {
  LoadSnapshot s;
  const fs::path proc(proc_root);
  const auto cpu = parse_cpu_times(read_small_file(proc / "stat").value_or(""));
  if (!cpu) return s;
  s.cpu = *cpu;
  process_times(proc, s);
  s.cpus = static_cast<int>(std::thread::hardware_concurrency());
  s.ok = true;
  return s;
}

double load_average(const std::string& proc_root) {
  double load1 = 0;
  std::ifstream(fs::path(proc_root) / "loadavg") >> load1;
  return load1;
}

std::optional<HostLoad> host_load(const LoadSnapshot& before, const LoadSnapshot& after, double load1) {
  // Under ~0.5 s of one CPU (clock ticks are 10 ms) a share says more about scheduling than load.
  constexpr uint64_t kMinTicks = 50;
  if (!before.ok || !after.ok || after.cpu.total < before.cpu.total + kMinTicks) return std::nullopt;
  const double total = static_cast<double>(after.cpu.total - before.cpu.total);
  const auto delta = [](uint64_t a, uint64_t b) { return b > a ? static_cast<double>(b - a) : 0.0; };
  const double idle = delta(before.cpu.idle, after.cpu.idle);
  const double steal = delta(before.cpu.steal, after.cpu.steal);
  const double irq = delta(before.cpu.irq, after.cpu.irq);
  const double own = delta(before.own_ticks, after.own_ticks);
  const double busy = total - idle - steal > 0 ? total - idle - steal : 0;
  HostLoad l;
  l.busy_pct = 100 * busy / total;
  const double unspent = busy > own + irq ? busy - own - irq : 0;
  l.others_pct = 100 * std::min(busy, std::max(unspent, others_between(before, after))) / total;
  l.steal_pct = 100 * steal / total;
  l.load1 = load1;
  l.cpus = after.cpus;
  return l;
}

bool is_busy(const HostLoad& l, double others_pct) { return l.others_pct > others_pct || l.steal_pct > others_pct / 3; }

gpunet::json to_json(const HostLoad& l) {
  return {{"busy_pct", l.busy_pct}, {"others_pct", l.others_pct}, {"steal_pct", l.steal_pct},
          {"load1", l.load1},       {"cpus", l.cpus}};
}

std::string describe_load(const HostLoad& l, const std::string& suite) {
  char buf[200];
  if (l.steal_pct * 3 > l.others_pct)
    std::snprintf(buf, sizeof buf, "the hypervisor stole %.0f %% of its CPU time during %s (load %.1f on %d CPUs)",
                  l.steal_pct, suite.c_str(), l.load1, l.cpus);
  else
    std::snprintf(buf, sizeof buf, "its CPUs were %.0f %% busy with other work during %s (load %.1f on %d CPUs)",
                  l.others_pct, suite.c_str(), l.load1, l.cpus);
  return buf;
}

}  // namespace gpunet::bench::counters
