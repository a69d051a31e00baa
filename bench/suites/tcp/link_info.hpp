// What this host's kernel says about one interface, for the ceiling: MTU, NIC speed, driver,
// loopback, a tc tbf rate at its root, and whether TCP timestamps are on. Read through ioctls and
// rtnetlink, so the answers are those of the network namespace the process runs in.
#pragma once

#include <string>

#include "bench/suites/tcp/ceiling.hpp"

namespace gpunet::bench::tcp {

// ipv6: whether the tests run over IPv6 on this interface.
LinkFacts read_link_facts(const std::string& iface, bool ipv6);

// Root qdisc tbf rate in bit/s of the interface; 0 when its root qdisc is not tbf or can't be read.
double read_tbf_rate_bps(const std::string& iface);

}  // namespace gpunet::bench::tcp
