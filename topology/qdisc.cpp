#include "topology/qdisc.hpp"

#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace gpunet::topo {

namespace {

struct Closer {
  int fd;
  ~Closer() { ::close(fd); }
};

}  // namespace

double read_tbf_rate_bps(const std::string& iface) {
  const unsigned index = if_nametoindex(iface.c_str());
  if (index == 0) return 0;
  const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0) return 0;
  const Closer nl{fd};
  timeval tv{2, 0};
  ::setsockopt(nl.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
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
  if (::send(nl.fd, &req, sizeof req, 0) < 0) return 0;

  double rate = 0;
  std::vector<char> buf(64 * 1024);
  for (;;) {
    const ssize_t n = ::recv(nl.fd, buf.data(), buf.size(), 0);
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

}  // namespace gpunet::topo
