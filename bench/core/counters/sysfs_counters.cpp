#include "bench/core/counters/sysfs_counters.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "topology/sysfs_util.hpp"

namespace gpunet::bench::counters {

namespace {

namespace fs = std::filesystem;
using topo::fsutil::list_dir;

net::Fd open_counter(const fs::path& p) { return net::Fd(::open(p.c_str(), O_RDONLY | O_CLOEXEC)); }

std::optional<uint64_t> read_u64(const net::Fd& f) {
  char text[32];
  const ssize_t n = ::pread(f.get(), text, sizeof text - 1, 0);
  if (n <= 0) return std::nullopt;
  text[n] = 0;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || errno != 0) return std::nullopt;
  return static_cast<uint64_t>(v);
}

}  // namespace

CounterFiles::CounterFiles(const std::string& sys_root) {
  const auto add = [this](std::string name, bool rdma, const fs::path& rx, const fs::path& tx) {
    Pair p{std::move(name), rdma, open_counter(rx), open_counter(tx)};
    if (p.rx && p.tx) files_.push_back(std::move(p));
  };
  const fs::path net = fs::path(sys_root) / "class/net";
  for (const auto& name : list_dir(net)) add(name, false, net / name / "statistics/rx_bytes", net / name / "statistics/tx_bytes");
  const fs::path ib = fs::path(sys_root) / "class/infiniband";
  for (const auto& dev : list_dir(ib))
    for (const auto& port : list_dir(ib / dev / "ports")) {
      const fs::path c = ib / dev / "ports" / port / "counters";
      add(dev + "/" + port, true, c / "port_rcv_data", c / "port_xmit_data");
    }
}

Snapshot CounterFiles::read(double t_s) const {
  Snapshot s;
  s.t_s = t_s;
  for (const auto& f : files_) {
    const auto rx = read_u64(f.rx);
    const auto tx = read_u64(f.tx);
    if (!rx || !tx) continue;
    if (f.rdma)
      s.rdma[f.name] = {*rx * 4, *tx * 4};
    else
      s.net[f.name] = {*rx, *tx};
  }
  return s;
}

Snapshot read_snapshot(const std::string& sys_root, double t_s) { return CounterFiles(sys_root).read(t_s); }

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
