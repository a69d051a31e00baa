// Rails: several data interfaces per node, rail k of one node paired with rail k of the others. Pure:
// the --tcp-if list, which interfaces "rails" means on a host, and where a slowness seen on some rails
// lies (one NIC, the node, or a rail's network).
#pragma once

#include <set>
#include <string>
#include <variant>
#include <vector>

#include "bench/net/address.hpp"

namespace gpunet::bench::tcp {

// "eth0,eth1" or "10.0.1.0/24,10.0.2.0/24" (one entry per rail) or "rails": the entries, or one line
// saying what is wrong. "" gives an empty list (the default address).
std::variant<std::vector<std::string>, std::string> parse_iface_list(const std::string& text);

// What --tcp-if rails means on this host: the data interfaces, those that are up, not loopback and
// have an IPv4 address, except `control_iface` (the control channel's and MPI's). When some of them
// are in `gpu_paired` (the topology's GPU<->NIC pairing: topo::gpu_paired_interfaces), those only;
// else all of them. In name order.
std::vector<std::string> rail_interfaces(const std::vector<net::IfAddress>& all, const std::string& control_iface,
                                         const std::vector<std::string>& gpu_paired = {});

// The interface the control channel listens on: the one --control-if selects, else the first non-loopback
// IPv4 interface that is up (bench/core/control_wireup.cpp's choice). "" when none.
std::string control_interface(const std::vector<net::IfAddress>& all, const std::string& control_if);

// Where a slowness lies, from the hosts found slow with every partner on each rail.
struct RailBlame {
  enum class Kind { nic, node, rail } kind = Kind::nic;
  std::string host;  // nic, node
  int rail = -1;     // nic, rail
};
// slow_hosts[k]: the hosts slow with every partner on rail k; all_slow[k]: rail k is slow everywhere
// (every node named, or the rail's network finding). A host slow on every rail that is not slow
// everywhere is the node; a host slow on some of them only is that host's NIC on each; a rail slow
// everywhere is that rail's network (and names no host on it). Needs 2 or more rails to name a NIC:
// with one rail a slow host is the node.
std::vector<RailBlame> localise(const std::vector<std::set<std::string>>& slow_hosts, const std::vector<bool>& all_slow);

}  // namespace gpunet::bench::tcp
