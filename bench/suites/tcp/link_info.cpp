#include "bench/suites/tcp/link_info.hpp"

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "bench/net/socket.hpp"
#include "topology/qdisc.hpp"

namespace gpunet::bench::tcp {

namespace {

bool ifreq_for(const std::string& iface, ifreq& ifr) {
  if (iface.empty() || iface.size() >= IFNAMSIZ) return false;
  std::memset(&ifr, 0, sizeof ifr);
  std::memcpy(ifr.ifr_name, iface.c_str(), iface.size());
  return true;
}

bool ethtool(int fd, const std::string& iface, void* cmd) {
  ifreq ifr{};
  if (!ifreq_for(iface, ifr)) return false;
  ifr.ifr_data = static_cast<char*>(cmd);
  return ::ioctl(fd, SIOCETHTOOL, &ifr) == 0;
}

// Speed in Mb/s from ETHTOOL_GSET (still answered by every driver that knows its speed).
int read_speed_Mbps(int fd, const std::string& iface) {
  ethtool_cmd cmd{};
  cmd.cmd = ETHTOOL_GSET;
  if (!ethtool(fd, iface, &cmd)) return 0;
  const uint32_t speed = ethtool_cmd_speed(&cmd);
  return speed == 0 || speed == static_cast<uint32_t>(SPEED_UNKNOWN) ? 0 : static_cast<int>(speed);
}

std::string read_driver(int fd, const std::string& iface) {
  ethtool_drvinfo info{};
  info.cmd = ETHTOOL_GDRVINFO;
  if (!ethtool(fd, iface, &info)) return "";
  return std::string(info.driver, strnlen(info.driver, sizeof info.driver));
}

bool read_timestamps_sysctl() {
  std::ifstream f("/proc/sys/net/ipv4/tcp_timestamps");  // per network namespace
  int v = 1;
  if (f >> v) return v != 0;
  return true;
}

}  // namespace

LinkFacts read_link_facts(const std::string& iface, bool ipv6) {
  LinkFacts f;
  f.iface = iface;
  f.ipv6 = ipv6;
  f.tcp_timestamps = read_timestamps_sysctl();
  net::Fd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd) return f;
  ifreq ifr{};
  if (ifreq_for(iface, ifr) && ::ioctl(fd.get(), SIOCGIFMTU, &ifr) == 0) f.mtu = ifr.ifr_mtu;
  if (ifreq_for(iface, ifr) && ::ioctl(fd.get(), SIOCGIFFLAGS, &ifr) == 0) f.loopback = (ifr.ifr_flags & IFF_LOOPBACK) != 0;
  f.driver = read_driver(fd.get(), iface);
  if (!f.loopback) f.speed_Mbps = read_speed_Mbps(fd.get(), iface);
  f.shaped_rate_bps = topo::read_tbf_rate_bps(iface);
  return f;
}

}  // namespace gpunet::bench::tcp
