// The networks a run measured: each interface that carried benchmark traffic, with its role as far
// as the report tells it, and a warning when the tcp suite of a multi-node run measured an interface
// nobody chose (no --tcp-if): the first IPv4 interface that is up, usually the management or MPI
// control network, or the interface of the default route. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/model/record.hpp"
#include "report/judge/verdicts.hpp"

namespace gpunet::report {

struct InterfaceUse {
  std::string host, iface;
  std::vector<std::string> roles;  // "default route", "chosen data network (--tcp-if eth0)", "RDMA", ...
  int figures = 0;                 // records measured over it
};

// Per host and interface, in report order.
std::vector<InterfaceUse> interfaces_used(const Report& rep);

// A WARN verdict ("network") when the tcp suite ran across hosts over an interface chosen by default;
// nullopt otherwise. The reason says how to choose (--tcp-if).
std::optional<Verdict> network_warning(const Report& rep);

// "default route; chosen data network (--tcp-if eth0)": an interface's roles in one line.
std::string roles_text(const InterfaceUse& u);

}  // namespace gpunet::report
