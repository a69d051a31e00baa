#include "bench/suites/tcp/link_info.hpp"

#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <vector>

#include "bench/net/socket.hpp"

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

double read_tbf_rate_bps(const std::string& iface) {
  const unsigned index = if_nametoindex(iface.c_str());
  if (index == 0) return 0;
  net::Fd nl(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE));
  if (!nl) return 0;
  timeval tv{2, 0};
  ::setsockopt(nl.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  struct {
    nlmsghdr nh;
    tcmsg tc;
  } req{};
  req.nh.nlmsg_len = sizeof req;
  req.nh.nlmsg_type = RTM_GETQDISC;
  req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
  req.nh.nlmsg_seq = 1;
  req.tc.tcm_family = AF_UNSPEC;
  req.tc.tcm_ifindex = static_cast<int>(index);
  if (::send(nl.get(), &req, sizeof req, 0) < 0) return 0;

  double rate = 0;
  std::vector<char> buf(64 * 1024);
  for (;;) {
    const ssize_t n = ::recv(nl.get(), buf.data(), buf.size(), 0);
    if (n <= 0) return rate;
    int len = static_cast<int>(n);
    for (auto* nh = reinterpret_cast<nlmsghdr*>(buf.data()); NLMSG_OK(nh, len); nh = NLMSG_NEXT(nh, len)) {
      if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR) return rate;
      if (nh->nlmsg_type != RTM_NEWQDISC) continue;
      const auto* tc = static_cast<const tcmsg*>(NLMSG_DATA(nh));
      if (tc->tcm_ifindex != static_cast<int>(index) || tc->tcm_parent != TC_H_ROOT) continue;
      bool is_tbf = false;
      double r32 = 0, r64 = 0;
      int alen = static_cast<int>(nh->nlmsg_len - NLMSG_LENGTH(sizeof(tcmsg)));
      for (auto* a = reinterpret_cast<rtattr*>(const_cast<char*>(reinterpret_cast<const char*>(tc)) + NLMSG_ALIGN(sizeof(tcmsg)));
           RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
        if (a->rta_type == TCA_KIND) is_tbf = std::strcmp(static_cast<const char*>(RTA_DATA(a)), "tbf") == 0;
        if (a->rta_type != TCA_OPTIONS) continue;
        int olen = static_cast<int>(RTA_PAYLOAD(a));
        for (auto* o = static_cast<rtattr*>(RTA_DATA(a)); RTA_OK(o, olen); o = RTA_NEXT(o, olen)) {
          if (o->rta_type == TCA_TBF_PARMS && RTA_PAYLOAD(o) >= sizeof(tc_tbf_qopt)) {
            tc_tbf_qopt q{};
            std::memcpy(&q, RTA_DATA(o), sizeof q);
            r32 = static_cast<double>(q.rate.rate) * 8.0;
          } else if (o->rta_type == TCA_TBF_RATE64 && RTA_PAYLOAD(o) >= sizeof(uint64_t)) {
            uint64_t v = 0;
            std::memcpy(&v, RTA_DATA(o), sizeof v);
            r64 = static_cast<double>(v) * 8.0;
          }
        }
      }
      if (is_tbf) rate = r64 > 0 ? r64 : r32;
    }
  }
}

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
  f.shaped_rate_bps = read_tbf_rate_bps(iface);
  return f;
}

}  // namespace gpunet::bench::tcp
