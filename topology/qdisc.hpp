// The rate a tc tbf qdisc at an interface's root shapes it to, asked of the kernel over rtnetlink,
// so the answer is that of the network namespace the process runs in (a fake cluster's nodes).
#pragma once

#include <string>

namespace gpunet::topo {

// Root qdisc tbf rate in bit/s of the interface; 0 when its root qdisc is not tbf or can't be read.
double read_tbf_rate_bps(const std::string& iface);

}  // namespace gpunet::topo
