#include "bench/suites/topo/mpi_interfaces.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "bench/net/address.hpp"

namespace gpunet::bench {

std::vector<std::string> mpi_interfaces(const topo::NodeTopology& t, const std::vector<std::string>& specs) {
  std::vector<std::string> out;
  auto add = [&out](const std::string& name) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  };
  for (const auto& spec : specs) {
    std::istringstream in(spec);
    for (std::string entry; std::getline(in, entry, ',');) {
      if (entry.empty()) continue;
      if (t.find_interface(entry)) {
        add(entry);
        continue;
      }
      const auto net = entry.find('/') == std::string::npos ? std::nullopt : net::parse_cidr(entry);
      if (!net) continue;
      for (const auto& i : t.interfaces)
        for (const auto& a : i.addresses)
          if (const auto ip = net::parse_ip(a); ip && net::cidr_contains(*net, *ip)) add(i.name);
    }
  }
  return out;
}

std::vector<std::string> mpi_interfaces_from_env(const topo::NodeTopology& t) {
  std::vector<std::string> specs;
  for (const char* name : {"OMPI_MCA_btl_tcp_if_include", "OMPI_MCA_oob_tcp_if_include"})
    if (const char* v = std::getenv(name)) specs.emplace_back(v);
  return mpi_interfaces(t, specs);
}

}  // namespace gpunet::bench
