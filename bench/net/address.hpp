// Choosing the address the TCP suite listens on and connects from: by interface name or CIDR.
// Parsing and selection are pure; list_addresses() reads the system's (getifaddrs).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace gpunet::bench::net {

struct IpAddress {
  int family = 0;                  // AF_INET or AF_INET6
  std::array<uint8_t, 16> bytes{}; // network order; IPv4 uses the first 4
  std::string to_string() const;
  bool operator==(const IpAddress&) const = default;
};

std::optional<IpAddress> parse_ip(const std::string& text);

struct Cidr {
  IpAddress base;
  int prefix = 0;
};

// "10.77.0.0/24", "fd77::/64", or a bare address (a /32 or /128).
std::optional<Cidr> parse_cidr(const std::string& text);
bool cidr_contains(const Cidr& net, const IpAddress& ip);

struct IfAddress {
  std::string iface;
  IpAddress ip;
  bool up = false;
  bool loopback = false;
  bool link_local = false;  // IPv6 fe80::/10 (needs a scope; not chosen)
};

// spec: an interface name (its IPv4 address, else its global IPv6 one) or a CIDR (the first
// address inside it). Returns the address, or one line saying why none fits.
std::variant<IfAddress, std::string> select_address(const std::vector<IfAddress>& all, const std::string& spec);

// The system's addresses (getifaddrs), in its order.
std::vector<IfAddress> list_addresses();

}  // namespace gpunet::bench::net
