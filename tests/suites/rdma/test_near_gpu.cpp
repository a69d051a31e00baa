// The RDMA port nearest to a rank's GPU, on real machines' hwloc exports (tests/data/topologies, with
// the path classes of shared/topologies/README.md as the expected answers).
#include <gtest/gtest.h>

#include "bench/suites/rdma/engine.hpp"
#include "topology/topology.hpp"

using namespace gpunet::bench::rdma;
namespace topo = gpunet::topo;

namespace {

topo::NodeTopology machine(const std::string& file) { return topo::load_topology_file(std::string(GPUNET_TOPOLOGY_DATA_DIR) + "/" + file); }

// Verbs' view: these devices, port 1 of each in the given state (4 = ACTIVE, 1 = DOWN).
Discovery ports(const std::vector<std::pair<std::string, int>>& devices) {
  Discovery d;
  d.built_with_verbs = true;
  for (const auto& [name, state] : devices) {
    PortAttrCodes a;
    a.state = state;
    a.link_layer = 1;
    d.devices.push_back({name, {}, {{1, convert_port_attr(a)}}, ""});
  }
  return d;
}

}  // namespace

TEST(NearGpu, JuwelsEachSocketHasItsNic) {
  // 4 V100 without cudaN OS devices (bus order stands for the ordinal); mlx5_0 is PIX to the first two
  // GPUs and SYS to the others, mlx5_1 the other way round.
  const auto t = machine("juwels-cluster-gpu-4xv100.xml");
  const auto d = ports({{"mlx5_0", 4}, {"mlx5_1", 4}});
  const char* want[] = {"mlx5_0", "mlx5_0", "mlx5_1", "mlx5_1"};
  for (int gpu = 0; gpu < 4; ++gpu) {
    const auto s = select_port_near_gpu(d, t, gpu);
    ASSERT_EQ(s.kind, PortSelection::Kind::use) << s.reason;
    EXPECT_EQ(s.device, want[gpu]) << gpu;
    EXPECT_EQ(s.gpu_index, gpu);
    EXPECT_EQ(s.gpu_nic_path, "PIX");
  }
  EXPECT_EQ(select_port_near_gpu(d, t, 1).reason, "nearest RDMA NIC to cuda:1 (0000:5e:00.0): mlx5_0 at PIX");
}

TEST(NearGpu, LassenEquallyNearNicsAreShared) {
  // Two NIC functions at NODE to each GPU pair: the GPUs take turns.
  const auto t = machine("ibm-ac922-lassen-4xv100.xml");
  const auto d = ports({{"mlx5_0", 4}, {"mlx5_1", 4}, {"mlx5_2", 4}, {"mlx5_3", 4}});
  const char* want[] = {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"};
  for (int gpu = 0; gpu < 4; ++gpu) {
    const auto s = select_port_near_gpu(d, t, gpu);
    EXPECT_EQ(s.device, want[gpu]) << gpu;
    EXPECT_EQ(s.gpu_nic_path, "NODE");
  }
}

TEST(NearGpu, NearestNicDownFallsBackAndSaysWhy) {
  const auto t = machine("juwels-cluster-gpu-4xv100.xml");
  const auto s = select_port_near_gpu(ports({{"mlx5_0", 4}, {"mlx5_1", 1}}), t, 3);
  ASSERT_EQ(s.kind, PortSelection::Kind::use);
  EXPECT_EQ(s.device, "mlx5_0");
  EXPECT_EQ(s.gpu_nic_path, "SYS");
  EXPECT_EQ(s.reason, "no ACTIVE port on the RDMA NIC nearest to cuda:3 (mlx5_1); first ACTIVE port");
}

TEST(NearGpu, UnknownGpuOrNoActivePort) {
  const auto t = machine("juwels-cluster-gpu-4xv100.xml");
  auto s = select_port_near_gpu(ports({{"mlx5_0", 4}}), t, 9);
  EXPECT_EQ(s.device, "mlx5_0");
  EXPECT_EQ(s.reason, "cuda:9 is not in the topology model; first ACTIVE port");
  EXPECT_EQ(s.gpu_nic_path, "");
  s = select_port_near_gpu(ports({{"mlx5_0", 1}, {"mlx5_1", 1}}), t, 0);
  EXPECT_EQ(s.kind, PortSelection::Kind::skip);
  EXPECT_EQ(s.reason, "no active RDMA port (mlx5_0:1 DOWN, mlx5_1:1 DOWN)");
}
