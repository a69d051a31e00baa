// The first GPU machine this project ran on (an H200 VM, ci/gpu-check.sh): hwloc's export and NCCL's
// own dump of it. NCCL lists the virtio NIC by name only, under the CPU; the comparison must say that
// NCCL does not know where the NIC is, not that NCCL misses it.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/topology/helpers.hpp"
#include "topology/nccl_xml.hpp"
#include "topology/topology.hpp"

namespace gpunet::topo {
namespace {

TEST(H200Vm, OneGpuAndTheVirtioNic) {
  const NodeTopology hw = load_topology_file(test::data_file("h200-vm-1gpu.xml"));
  ASSERT_EQ(hw.gpus().size(), 1u);
  EXPECT_EQ(hw.gpus()[0]->bus_id, "0000:00:06.0");
  ASSERT_EQ(hw.nics().size(), 1u);
  EXPECT_EQ(hw.nics()[0]->bus_id, "0000:00:03.0");
  EXPECT_EQ(hw.nics()[0]->netdevs, std::vector<std::string>{"eth0"});
}

TEST(H200Vm, NcclListsTheNicWithoutItsPciLocation) {
  const NodeTopology hw = load_topology_file(test::data_file("h200-vm-1gpu.xml"));
  const NodeTopology nccl = load_topology_file(test::data_file("nccl-h200-vm-1gpu.xml"));
  ASSERT_EQ(nccl.gpus().size(), 1u);
  EXPECT_TRUE(nccl.nics().empty());
  ASSERT_NE(nccl.find_interface("eth0"), nullptr);
  EXPECT_EQ(nccl.find_interface("eth0")->speed_Mbps, 10000);
  const auto findings = compare_views(hw, nccl);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("lists eth0 (NIC 0000:00:03.0) under the CPU without its PCI location"),
            std::string::npos) << findings[0].message;
  EXPECT_EQ(findings[0].message.find("does not list"), std::string::npos);
  EXPECT_EQ(findings[0].subjects, std::vector<std::string>{"0000:00:03.0"});
}

}  // namespace
}  // namespace gpunet::topo
