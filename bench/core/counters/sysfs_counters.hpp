// Byte counters of a node's network interfaces and RDMA ports, read from sysfs, and the interfaces
// that carry the default route, read from procfs. Roots are parameters so tests can use fake trees.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench/net/socket.hpp"

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

// The counter files: SYS/class/net/*/statistics/{rx,tx}_bytes and SYS/class/infiniband/*/ports/*/
// counters/port_{rcv,xmit}_data (counted in 4-byte words by the IB spec; converted to bytes). The
// directories are walked and the files opened once, when constructed; each read() is then one
// pread(2) per file (a sysfs attribute is regenerated at every read from offset 0). On this
// project's VM a reading of 4 interfaces costs ~8 us so, against ~90 us when every reading walks the
// directories and opens, reads and closes each file: the sampler runs on a measuring rank's core.
// Interfaces or ports whose files are missing or unreadable are left out; ones that appear later are
// not seen.
class CounterFiles {
 public:
  explicit CounterFiles(const std::string& sys_root);
  Snapshot read(double t_s) const;

 private:
  struct Pair {
    std::string name;
    bool rdma = false;
    net::Fd rx, tx;
  };
  std::vector<Pair> files_;
};

// One reading of every counter file (CounterFiles, found, opened and read once).
Snapshot read_snapshot(const std::string& sys_root, double t_s);

// Interfaces of the default route: PROC/net/route (destination 00000000) and PROC/net/ipv6_route
// (prefix ::/0), de-duplicated, loopback excluded.
std::vector<std::string> default_route_interfaces(const std::string& proc_root);

// Interfaces whose operstate is "up" (or "unknown", which virtual links report), loopback excluded.
std::vector<std::string> up_interfaces(const std::string& sys_root);

}  // namespace gpunet::bench::counters
