#include "topology/live_net.hpp"

#include "topology/qdisc.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace gpunet::topo {

namespace {

// A socket that closes itself.
class Socket {
 public:
  Socket() : fd_(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

bool ethtool(const Socket& s, const std::string& ifname, void* data) {
  ifreq req{};
  if (ifname.size() >= sizeof req.ifr_name) return false;
  std::memcpy(req.ifr_name, ifname.c_str(), ifname.size());
  req.ifr_data = static_cast<char*>(data);
  return ::ioctl(s.fd(), SIOCETHTOOL, &req) == 0;
}

// ETHTOOL_GLINKSETTINGS: first ask for the mask size, then read with room for the three masks
// that follow the fixed part (a flexible array member, so the request lives in a raw buffer).
std::optional<int> port_from_link_settings(const Socket& s, const std::string& ifname) {
  constexpr size_t kMaxWords = 127;
  alignas(ethtool_link_settings) unsigned char buf[sizeof(ethtool_link_settings) + 3 * kMaxWords * sizeof(uint32_t)];
  auto* settings = reinterpret_cast<ethtool_link_settings*>(buf);
  std::memset(buf, 0, sizeof buf);
  settings->cmd = ETHTOOL_GLINKSETTINGS;
  if (!ethtool(s, ifname, buf) || settings->link_mode_masks_nwords >= 0) return std::nullopt;
  const int8_t nwords = static_cast<int8_t>(-settings->link_mode_masks_nwords);
  std::memset(buf, 0, sizeof buf);
  settings->cmd = ETHTOOL_GLINKSETTINGS;
  settings->link_mode_masks_nwords = nwords;
  if (!ethtool(s, ifname, buf)) return std::nullopt;
  return settings->port;
}

std::optional<int> port_from_legacy(const Socket& s, const std::string& ifname) {
  ethtool_cmd cmd{};
  cmd.cmd = ETHTOOL_GSET;
  if (!ethtool(s, ifname, &cmd)) return std::nullopt;
  return cmd.port;
}

std::string address_text(const sockaddr* sa) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (sa->sa_family == AF_INET) {
    const auto* in4 = reinterpret_cast<const sockaddr_in*>(sa);
    if (inet_ntop(AF_INET, &in4->sin_addr, buf, sizeof buf)) return buf;
  } else if (sa->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    if (inet_ntop(AF_INET6, &in6->sin6_addr, buf, sizeof buf)) return buf;
  }
  return "";
}

}  // namespace

std::string port_type_name(int port) {
  switch (port) {
    case PORT_TP: return "twisted pair";
    case PORT_AUI: return "AUI";
    case PORT_MII: return "MII";
    case PORT_FIBRE: return "fibre";
    case PORT_BNC: return "BNC";
    case PORT_DA: return "direct-attach copper";
    case PORT_NONE: return "none";
    default: return "other";
  }
}

std::optional<std::string> query_port_type(const std::string& ifname) {
  const Socket s;
  if (s.fd() < 0) return std::nullopt;
  auto port = port_from_link_settings(s, ifname);
  if (!port) port = port_from_legacy(s, ifname);
  if (!port) return std::nullopt;
  return port_type_name(*port);
}

void add_live_details(std::vector<NetInterface>& interfaces) {
  for (auto& n : interfaces) {
    if (auto port = query_port_type(n.name)) n.port_type = *port;
    n.shaped_rate_bps = read_tbf_rate_bps(n.name);
  }
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return;
  for (const ifaddrs* a = list; a; a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_name == nullptr) continue;
    const std::string text = address_text(a->ifa_addr);
    if (text.empty()) continue;
    for (auto& n : interfaces)
      if (n.name == a->ifa_name) n.addresses.push_back(text);
  }
  freeifaddrs(list);
}

}  // namespace gpunet::topo
