// Which interfaces Open MPI was told to use (OMPI_MCA_*_tcp_if_include): by name or by CIDR.
#include <gtest/gtest.h>

#include "bench/suites/topo/mpi_interfaces.hpp"

namespace gpunet::bench {
namespace {

topo::NodeTopology fake_cluster_node() {
  topo::NodeTopology t;
  topo::NetInterface data, ctl;
  data.name = "eth0";
  data.addresses = {"10.77.0.1", "fd77::1"};
  ctl.name = "ctl0";
  ctl.addresses = {"10.78.0.1"};
  t.interfaces = {data, ctl};
  return t;
}

TEST(MpiInterfaces, ByCidrOrByName) {
  const auto t = fake_cluster_node();
  EXPECT_EQ(mpi_interfaces(t, {"10.78.0.0/24", "10.78.0.0/24"}), std::vector<std::string>{"ctl0"});
  EXPECT_EQ(mpi_interfaces(t, {"eth0,ctl0"}), (std::vector<std::string>{"eth0", "ctl0"}));
  EXPECT_EQ(mpi_interfaces(t, {"fd77::/64"}), std::vector<std::string>{"eth0"});
  EXPECT_TRUE(mpi_interfaces(t, {"", "ib0", "10.99.0.0/16"}).empty()) << "nothing matches: nothing guessed";
}

}  // namespace
}  // namespace gpunet::bench
