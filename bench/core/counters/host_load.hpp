// How busy a node's CPUs were with other work while a suite ran: /proc/stat's CPU time (busy, steal)
// less the CPU time of this run's own processes on the node (every process running this executable),
// or the CPU time of the other processes where that is more, and the load average. A figure measured
// while its hosts were saturated by others, or while the hypervisor stole their time, says more about
// the hosts than about the network.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "common/json.hpp"

namespace gpunet::bench::counters {

// CPU time summed over every CPU, in clock ticks (/proc/stat's first "cpu" line).
struct CpuTimes {
  uint64_t total = 0, idle = 0, steal = 0;  // idle includes iowait; total includes steal and irq
  uint64_t irq = 0;  // hard and soft interrupts: mostly the network traffic the run itself makes
};

// Parses /proc/stat's text; nullopt when its "cpu " line is missing or malformed. Pure.
std::optional<CpuTimes> parse_cpu_times(const std::string& proc_stat);

// One snapshot of the node: CPU times, this run's own CPU time, the CPU count.
struct LoadSnapshot {
  CpuTimes cpu;
  uint64_t own_ticks = 0;  // utime + stime of every process whose executable is this one
  // utime + stime of every other process whose executable can be read (no kernel thread), by PID
  std::map<int, uint64_t> others_ticks;
  int cpus = 0;
  bool ok = false;
};
LoadSnapshot take_load_snapshot(const std::string& proc_root);
double load_average(const std::string& proc_root);  // /proc/loadavg's first field, 0 when unreadable

struct HostLoad {
  double busy_pct = 0;    // of all CPU time: not idle
  // Of all CPU time: busy with other work. The busy time neither this run's processes nor interrupts
  // spent, or the other processes' CPU time where that is more: the kernel counts a clock tick that
  // lands in a softirq both as interrupt time and as the interrupted process's, so on a host whose
  // traffic is handled in softirqs in this run's processes the first misses other work (measured: a
  // busy loop with 30 % of the ticks counted as 2-7 % on the namespace cluster).
  double others_pct = 0;
  double steal_pct = 0;   // of all CPU time: taken by the hypervisor
  double load1 = 0;       // 1-minute load average at the end
  int cpus = 0;
};

// From two snapshots and the load average at the end. Pure; nullopt when under 50 clock ticks of
// CPU time passed (a suite too short to judge).
std::optional<HostLoad> host_load(const LoadSnapshot& before, const LoadSnapshot& after, double load1);

// Other work above `others_pct` of the CPUs (--host-busy-pct, default 30), or steal above a third of
// it, makes a node busy.
bool is_busy(const HostLoad& l, double others_pct);

// {"busy_pct", "others_pct", "steal_pct", "load1", "cpus", "busy"}
gpunet::json to_json(const HostLoad& l);
// "its CPUs were 97 % busy with other work during mpi (load 12.3 on 2 CPUs)"
std::string describe_load(const HostLoad& l, const std::string& suite);

}  // namespace gpunet::bench::counters
