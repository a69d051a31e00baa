#include "bench/core/counters/sysfs_counters.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "topology/sysfs_util.hpp"

namespace gpunet::bench::counters {

namespace {

namespace fs = std::filesystem;
using topo::fsutil::list_dir;

std::optional<uint64_t> read_u64(const fs::path& p) {
  std::ifstream in(p);
  uint64_t v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

}  // namespace

Snapshot read_snapshot(const std::string& sys_root, double t_s) {
  Snapshot s;
  s.t_s = t_s;
  const fs::path net = fs::path(sys_root) / "class/net";
  for (const auto& name : list_dir(net)) {
    const auto rx = read_u64(net / name / "statistics/rx_bytes");
    const auto tx = read_u64(net / name / "statistics/tx_bytes");
    if (rx && tx) s.net[name] = {*rx, *tx};
  }
  const fs::path ib = fs::path(sys_root) / "class/infiniband";
  for (const auto& dev : list_dir(ib))
    for (const auto& port : list_dir(ib / dev / "ports")) {
      const fs::path c = ib / dev / "ports" / port / "counters";
      const auto rx = read_u64(c / "port_rcv_data");
      const auto tx = read_u64(c / "port_xmit_data");
      if (rx && tx) s.rdma[dev + "/" + port] = {*rx * 4, *tx * 4};
    }
  return s;
}

std::vector<std::string> default_route_interfaces(const std::string& proc_root) {
  std::vector<std::string> out;
  std::ifstream v4(fs::path(proc_root) / "net/route");
  std::string line;
  std::getline(v4, line);  // header
  while (std::getline(v4, line)) {
    std::istringstream ss(line);
    std::string iface, dest;
    if (ss >> iface >> dest && dest == "00000000") out.push_back(iface);
  }
  std::ifstream v6(fs::path(proc_root) / "net/ipv6_route");
  while (std::getline(v6, line)) {
    std::istringstream ss(line);
    std::vector<std::string> f;
    for (std::string x; ss >> x;) f.push_back(x);
    if (f.size() >= 10 && f[0] == std::string(32, '0') && f[1] == "00") out.push_back(f[9]);
  }
  out.erase(std::remove(out.begin(), out.end(), "lo"), out.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> up_interfaces(const std::string& sys_root) {
  std::vector<std::string> out;
  const fs::path net = fs::path(sys_root) / "class/net";
  for (const auto& name : list_dir(net)) {
    if (name == "lo") continue;
    std::ifstream in(net / name / "operstate");
    std::string state;
    in >> state;
    if (state == "up" || state == "unknown") out.push_back(name);
  }
  return out;
}

}  // namespace gpunet::bench::counters
