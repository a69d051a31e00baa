// What this host's kernel says about one interface, for the ceiling: MTU, NIC speed, driver,
// loopback, a tc tbf rate at its root, and whether TCP timestamps are on. Read through ioctls and
// rtnetlink, so the answers are those of the network namespace the process runs in.
#pragma once

#include <string>

#include "bench/suites/tcp/ceiling.hpp"

namespace gpunet::bench::tcp {

// ipv6: whether the tests run over IPv6 on this interface.
LinkFacts read_link_facts(const std::string& iface, bool ipv6);
// The tbf rate comes from topo::read_tbf_rate_bps (topology/qdisc.hpp), which the topo suite uses too.

}  // namespace gpunet::bench::tcp
