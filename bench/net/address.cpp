#include "bench/net/address.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace gpunet::bench::net {

std::string IpAddress::to_string() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(family, bytes.data(), buf, sizeof buf);
  return buf;
}

std::optional<IpAddress> parse_ip(const std::string& text) {
  IpAddress ip;
  if (inet_pton(AF_INET, text.c_str(), ip.bytes.data()) == 1) {
    ip.family = AF_INET;
    return ip;
  }
  if (inet_pton(AF_INET6, text.c_str(), ip.bytes.data()) == 1) {
    ip.family = AF_INET6;
    return ip;
  }
  return std::nullopt;
}

std::optional<Cidr> parse_cidr(const std::string& text) {
  const auto slash = text.find('/');
  const auto ip = parse_ip(text.substr(0, slash));
  if (!ip) return std::nullopt;
  const int max_prefix = ip->family == AF_INET ? 32 : 128;
  int prefix = max_prefix;
  if (slash != std::string::npos) {
    const std::string p = text.substr(slash + 1);
    if (p.empty() || p.size() > 3 || !std::all_of(p.begin(), p.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    prefix = std::stoi(p);
    if (prefix > max_prefix) return std::nullopt;
  }
  return Cidr{*ip, prefix};
}

bool cidr_contains(const Cidr& net, const IpAddress& ip) {
  if (net.base.family != ip.family) return false;
  int bits = net.prefix;
  for (size_t i = 0; bits > 0; ++i, bits -= 8) {
    const auto mask = static_cast<uint8_t>(bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff);
    if ((net.base.bytes[i] & mask) != (ip.bytes[i] & mask)) return false;
  }
  return true;
}

std::variant<IfAddress, std::string> select_address(const std::vector<IfAddress>& all, const std::string& spec) {
  if (spec.empty()) return std::string("empty interface or CIDR");
  const bool looks_like_cidr = spec.find('/') != std::string::npos || parse_ip(spec).has_value();
  if (looks_like_cidr) {
    const auto net = parse_cidr(spec);
    if (!net) return "'" + spec + "' is not a valid CIDR (use e.g. 10.0.0.0/24 or fd00::/64)";
    for (const auto& a : all)
      if (a.up && !a.link_local && cidr_contains(*net, a.ip)) return a;
    return "no address of this host that is up lies in " + spec;
  }
  const IfAddress* v6 = nullptr;
  bool seen = false;
  for (const auto& a : all) {
    if (a.iface != spec) continue;
    seen = true;
    if (!a.up || a.link_local) continue;
    if (a.ip.family == AF_INET) return a;
    if (!v6) v6 = &a;
  }
  if (v6) return *v6;
  std::string names;
  for (const auto& a : all)
    if (names.find(" " + a.iface + ",") == std::string::npos) names += " " + a.iface + ",";
  if (!names.empty()) names.pop_back();
  return seen ? "interface " + spec + " is down or has no usable address"
              : "no interface " + spec + " with an address on this host (have:" + names + ")";
}

std::vector<IfAddress> list_addresses() {
  std::vector<IfAddress> out;
  ifaddrs* head = nullptr;
  if (getifaddrs(&head) != 0) return out;
  const std::unique_ptr<ifaddrs, void (*)(ifaddrs*)> guard(head, freeifaddrs);
  for (const ifaddrs* p = head; p; p = p->ifa_next) {
    if (!p->ifa_addr || (p->ifa_addr->sa_family != AF_INET && p->ifa_addr->sa_family != AF_INET6)) continue;
    IfAddress a;
    a.iface = p->ifa_name;
    a.up = (p->ifa_flags & IFF_UP) != 0;
    a.loopback = (p->ifa_flags & IFF_LOOPBACK) != 0;
    a.ip.family = p->ifa_addr->sa_family;
    if (a.ip.family == AF_INET) {
      sockaddr_in sin{};
      std::memcpy(&sin, p->ifa_addr, sizeof sin);
      std::memcpy(a.ip.bytes.data(), &sin.sin_addr, 4);
    } else {
      sockaddr_in6 sin6{};
      std::memcpy(&sin6, p->ifa_addr, sizeof sin6);
      std::memcpy(a.ip.bytes.data(), &sin6.sin6_addr, 16);
      a.link_local = a.ip.bytes[0] == 0xfe && (a.ip.bytes[1] & 0xc0) == 0x80;
    }
    out.push_back(a);
  }
  return out;
}

}  // namespace gpunet::bench::net
