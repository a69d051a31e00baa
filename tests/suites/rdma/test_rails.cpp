// Several RDMA ports, one per rail: the option, the ACTIVE ports read from sysfs trees laid out like
// multi-HCA machines, the selection per rail, rail k paired across nodes, and the plan lines.
#include <gtest/gtest.h>

#include "bench/suites/rdma/rails.hpp"
#include "tests/support/parse_options.hpp"
#include "tests/suites/rdma/sysfs_tree.hpp"

using namespace gpunet::bench;
using namespace gpunet::bench::rdma;
using gpunet::test::SysfsTree;

namespace {

// One port of an RDMA device as the kernel shows it: ports/<n>/state ("4: ACTIVE") and link_layer.
void rails_port(const SysfsTree& t, const std::string& dev, int port, const std::string& state) {
  const std::string base = "class/infiniband/" + dev + "/ports/" + std::to_string(port) + "/";
  t.write(base + "state", state + "\n");
  t.write(base + "link_layer", "InfiniBand\n");
}

// An 8-rail GPU server (one HCA per GPU, mlx5_0 ... mlx5_7, as on ND A100 v4 or DGX A100), plus a
// dual-port Ethernet NIC for storage whose second port is down, and an ACTIVE_DEFER port (not ACTIVE).
void eight_rail_machine(const SysfsTree& t) {
  for (int i = 0; i < 8; ++i) rails_port(t, "mlx5_" + std::to_string(i), 1, "4: ACTIVE");
  rails_port(t, "mlx5_10", 1, "4: ACTIVE");
  rails_port(t, "mlx5_10", 2, "1: DOWN");
  rails_port(t, "mlx5_11", 1, "5: ACTIVE_DEFER");
}

PortEntry rails_port_entry(int n, int state) {
  PortAttrCodes a;
  a.state = state;
  a.link_layer = 1;
  return {n, convert_port_attr(a)};
}

// What verbs would report on a dual-HCA node: mlx5_0 (1 port) and mlx5_1 (port 1 ACTIVE, port 2 DOWN).
Discovery rails_discovery() {
  Discovery d;
  d.built_with_verbs = true;
  d.devices.push_back({"mlx5_0", {}, {rails_port_entry(1, 4)}, ""});
  d.devices.push_back({"mlx5_1", {}, {rails_port_entry(1, 4), rails_port_entry(2, 1)}, ""});
  return d;
}

}  // namespace

TEST(RdmaRails, ParsesOneDeviceAListAndAll) {
  RdmaDevRequest r;
  EXPECT_EQ(parse_rdma_devs("", r), "");
  EXPECT_FALSE(r.several());
  EXPECT_EQ(parse_rdma_devs("mlx5_0:1", r), "");
  EXPECT_FALSE(r.several());  // one device: the one-device path, unchanged
  EXPECT_EQ(r.names, (std::vector<std::string>{"mlx5_0:1"}));
  EXPECT_EQ(parse_rdma_devs("mlx5_1,mlx5_0:2", r), "");
  EXPECT_TRUE(r.several());
  EXPECT_EQ(r.names, (std::vector<std::string>{"mlx5_1", "mlx5_0:2"}));  // the order given is the rail order
  EXPECT_EQ(parse_rdma_devs("all", r), "");
  EXPECT_TRUE(r.all);
  EXPECT_TRUE(r.several());
}

TEST(RdmaRails, RefusesMalformedListsInOneLine) {
  RdmaDevRequest r;
  EXPECT_EQ(parse_rdma_devs("mlx5_0,,mlx5_1", r), "--rdma-dev: an empty item in the list; write e.g. mlx5_0,mlx5_1 or mlx5_0:1,mlx5_1:1 or all");
  EXPECT_NE(parse_rdma_devs("mlx5_0,", r).find("empty item"), std::string::npos);
  EXPECT_EQ(parse_rdma_devs("all,mlx5_0", r), "--rdma-dev: 'all' stands alone (every ACTIVE port); do not list it with devices");
  EXPECT_EQ(parse_rdma_devs("mlx5_0,mlx5_0", r), "--rdma-dev: mlx5_0 is listed twice; each rail needs its own device or port");
  EXPECT_EQ(parse_rdma_devs("mlx5_0:x", r), "--rdma-dev mlx5_0:x: write DEV or DEV:PORT with a port from 1 (e.g. mlx5_0:1)");
  EXPECT_NE(parse_rdma_devs("mlx5_0:0", r), "");
  EXPECT_NE(parse_rdma_devs(":1", r), "");
}

TEST(RdmaRails, TheCommandLineRefusesABadListWithExitCode2) {
  option_tests::expect_usage_error({"--rdma-dev", "mlx5_0,,mlx5_1"}, "--rdma-dev: an empty item");
  option_tests::expect_usage_error({"--rdma-dev", "mlx5_0,mlx5_0"}, "listed twice");
  option_tests::expect_usage_error({"--rdma-dev", "mlx5_0:two"}, "--rdma-dev mlx5_0:two");
  EXPECT_TRUE(option_tests::parse({"--rdma-dev", "mlx5_0:1,mlx5_1:1"}).config.has_value());
  EXPECT_TRUE(option_tests::parse({"--rdma-dev", "all"}).config.has_value());
}

TEST(RdmaRails, AllIsEveryActivePortOfEveryDeviceInSysfs) {
  SysfsTree t;
  eight_rail_machine(t);
  EXPECT_EQ(active_ports_in_sysfs(t.root()),
            (std::vector<std::string>{"mlx5_0:1", "mlx5_1:1", "mlx5_2:1", "mlx5_3:1", "mlx5_4:1", "mlx5_5:1", "mlx5_6:1", "mlx5_7:1",
                                      "mlx5_10:1"}));  // mlx5_10 after mlx5_7; its DOWN port 2 and mlx5_11's ACTIVE_DEFER left out
}

TEST(RdmaRails, DualPortHcaGivesTwoRails) {
  SysfsTree t;
  rails_port(t, "mlx5_0", 2, "4: ACTIVE");
  rails_port(t, "mlx5_0", 1, "4: ACTIVE");
  t.mkdir("class/infiniband/mlx5_0/ports/lost+found");  // not a port number: ignored
  EXPECT_EQ(active_ports_in_sysfs(t.root()), (std::vector<std::string>{"mlx5_0:1", "mlx5_0:2"}));
}

TEST(RdmaRails, NoSysfsTreeMeansNoPorts) {
  SysfsTree t;
  EXPECT_TRUE(active_ports_in_sysfs(t.root()).empty());
  EXPECT_TRUE(active_ports_in_sysfs(t.path("absent")).empty());
}

TEST(RdmaRails, SelectsOnePortPerRailInTheOrderGiven) {
  const Discovery d = rails_discovery();
  const auto rails = select_rails(d, {"mlx5_1", "mlx5_0:1"});
  ASSERT_EQ(rails.size(), 2u);
  EXPECT_EQ(rails[0].kind, PortSelection::Kind::use);
  EXPECT_EQ(rails[0].device, "mlx5_1");
  EXPECT_EQ(rails[0].port, 1);
  EXPECT_EQ(rails[1].device, "mlx5_0");
  EXPECT_EQ(rails[1].port, 1);
}

TEST(RdmaRails, AllReadFromSysfsSelectsThroughTheDiscovery) {
  SysfsTree t;
  rails_port(t, "mlx5_0", 1, "4: ACTIVE");
  rails_port(t, "mlx5_1", 1, "4: ACTIVE");
  rails_port(t, "mlx5_1", 2, "1: DOWN");
  const auto rails = select_rails(rails_discovery(), active_ports_in_sysfs(t.root()));
  ASSERT_EQ(rails.size(), 2u);
  EXPECT_EQ(rails[0].device + ":" + std::to_string(rails[0].port), "mlx5_0:1");
  EXPECT_EQ(rails[1].device + ":" + std::to_string(rails[1].port), "mlx5_1:1");
}

TEST(RdmaRails, APortThatIsNotThereFailsTheWholeChoice) {
  const Discovery d = rails_discovery();
  auto rails = select_rails(d, {"mlx5_0", "mlx5_1:2"});
  ASSERT_EQ(rails.size(), 1u);
  EXPECT_EQ(rails[0].kind, PortSelection::Kind::fail);
  EXPECT_EQ(rails[0].reason, "--rdma-dev mlx5_1:2: not ACTIVE (mlx5_1:2 DOWN)");
  rails = select_rails(d, {"mlx5_0", "mlx5_9"});
  EXPECT_EQ(rails[0].reason, "--rdma-dev mlx5_9: no such RDMA device (found: mlx5_0, mlx5_1)");
}

TEST(RdmaRails, NoActivePortInSysfsIsASkipWithTheReason) {
  auto rails = select_rails(rails_discovery(), {});
  ASSERT_EQ(rails.size(), 1u);
  EXPECT_EQ(rails[0].kind, PortSelection::Kind::skip);
  EXPECT_EQ(rails[0].reason, "--rdma-dev all: no ACTIVE port under class/infiniband in sysfs");
  rails = select_rails(Discovery{}, {});
  EXPECT_EQ(rails[0].reason, "built without libibverbs");
}

TEST(RdmaRails, RailKOfEveryNodeIsPairedByPosition) {
  const std::vector<std::string> hosts = {"gpu-a", "gpu-b", "gpu-c"};
  const auto p = pair_rails({{"mlx5_0:1", "mlx5_1:1"}, {"mlx5_2:1", "mlx5_3:1"}, {"mlx5_0:1", "mlx5_0:2"}}, hosts);
  EXPECT_EQ(p.error, "");
  ASSERT_EQ(p.ports.size(), 2u);
  EXPECT_EQ(p.ports[0], (std::vector<std::string>{"mlx5_0:1", "mlx5_2:1", "mlx5_0:1"}));
  EXPECT_EQ(p.ports[1], (std::vector<std::string>{"mlx5_1:1", "mlx5_3:1", "mlx5_0:2"}));
  EXPECT_EQ(rail_plan_lines(p, hosts), (std::vector<std::string>{"rail 0: gpu-a/0 mlx5_0:1, gpu-b/1 mlx5_2:1, gpu-c/2 mlx5_0:1",
                                                                  "rail 1: gpu-a/0 mlx5_1:1, gpu-b/1 mlx5_3:1, gpu-c/2 mlx5_0:2"}));
}

TEST(RdmaRails, ANodeWithFewerPortsIsRefusedByName) {
  const auto p = pair_rails({{"mlx5_0:1", "mlx5_1:1"}, {"mlx5_0:1", "mlx5_1:1"}, {"mlx5_0:1"}}, {"gpu-a", "gpu-b", "gpu-c"});
  EXPECT_TRUE(p.ports.empty());
  EXPECT_EQ(p.error,
            "rdma rails: host gpu-c (rank 2) has 1 RDMA port (mlx5_0:1) where gpu-a (rank 0) has 2 RDMA ports (mlx5_0:1, mlx5_1:1); "
            "rail k pairs the k-th port of every node: bring the missing ports up or name the same number with --rdma-dev");
  EXPECT_EQ(p.error.find('\n'), std::string::npos);
}
