// Interface details that only the running kernel can answer, not files: the port type through the
// ethtool ioctl (SIOCETHTOOL, allowed without root), the IP addresses (getifaddrs), and a tc tbf
// rate at the root (rtnetlink, topology/qdisc.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topology/model.hpp"

namespace gpunet::topo {

// The ethtool port type of an interface: "twisted pair", "direct-attach copper", "fibre", "AUI",
// "BNC", "MII", "none", "other"; nullopt when the driver does not answer or the interface is absent.
std::optional<std::string> query_port_type(const std::string& ifname);

// The name of an ethtool PORT_* value (see query_port_type).
std::string port_type_name(int port);

// Adds port type, tbf shaping rate and addresses to interfaces that exist on this machine.
void add_live_details(std::vector<NetInterface>& interfaces);

}  // namespace gpunet::topo
