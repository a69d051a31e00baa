// Network interfaces from sysfs and procfs, without root: speed, MTU, state, driver, MAC, the PCI
// function behind each one, bond members and mode (bonding/slaves, or lower_* links for other
// aggregates), VLANs (/proc/net/vlan/config, or DEVTYPE=vlan with its lower_* link), and the
// interfaces that carry a default route (/proc/net/route, /proc/net/ipv6_route).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topology/model.hpp"

namespace gpunet::topo {

// Every interface in SYS/class/net except loopback, ordered by name.
std::vector<NetInterface> read_net_interfaces(const std::string& sys_root, const std::string& proc_root);

// Interfaces with an IPv4 or IPv6 default route, in the order found, without duplicates.
std::vector<std::string> read_default_route_interfaces(const std::string& proc_root);

// Link speed in Mb/s from the text of SYS/class/net/IF/speed: -1, 0, blank or garbage -> nullopt.
std::optional<int64_t> parse_net_speed(const std::string& text);

}  // namespace gpunet::topo
