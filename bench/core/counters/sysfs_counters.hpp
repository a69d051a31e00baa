// Byte counters of a node's network interfaces and RDMA ports, read from sysfs, and the interfaces
// that carry the default route, read from procfs. Roots are parameters so tests can use fake trees.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpunet::bench::counters {

struct ByteCounts {
  uint64_t rx = 0, tx = 0;
};

// One reading of every counter, at time t_s (seconds on a monotonic clock).
struct Snapshot {
  double t_s = 0;
  std::map<std::string, ByteCounts> net;   // interface -> statistics/{rx,tx}_bytes
  std::map<std::string, ByteCounts> rdma;  // "mlx5_0/1" -> ports/1/counters/port_{rcv,xmit}_data x 4 bytes
};

// Reads SYS/class/net/*/statistics/{rx,tx}_bytes and SYS/class/infiniband/*/ports/*/counters/
// port_{rcv,xmit}_data (counted in 4-byte words by the IB spec; converted to bytes). Interfaces or
// ports whose files are missing are left out.
Snapshot read_snapshot(const std::string& sys_root, double t_s);

// Interfaces of the default route: PROC/net/route (destination 00000000) and PROC/net/ipv6_route
// (prefix ::/0), de-duplicated, loopback excluded.
std::vector<std::string> default_route_interfaces(const std::string& proc_root);

// Interfaces whose operstate is "up" (or "unknown", which virtual links report), loopback excluded.
std::vector<std::string> up_interfaces(const std::string& sys_root);

}  // namespace gpunet::bench::counters
