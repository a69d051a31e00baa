// The ground truth of tests/data/topologies/README (SOURCES.md): for every real-machine hwloc export,
// GPU and NIC counts, bus ids, NUMA nodes, packages, hwloc link speeds, OS devices, and the whole
// GPU x NIC path-class matrix.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/topology/helpers.hpp"
#include "topology/paths.hpp"
#include "topology/topology.hpp"

namespace gpunet::topo {
namespace {

struct GpuRow {
  std::string bus_id;
  int numa, package;
  double hwloc_GBps;  // 0: no link speed in the file
  std::vector<std::string> osdevs;
  std::vector<std::string> classes;  // one per NIC column
};

struct NicCol {
  std::string bus_id;
  std::vector<std::string> names;  // netdevs and RDMA devices
  int numa;
  bool rdma;
};

struct Truth {
  std::string file;
  std::vector<NicCol> nics;
  std::vector<GpuRow> gpus;
};

std::ostream& operator<<(std::ostream& os, const Truth& t) { return os << t.file; }

const std::vector<Truth>& truths() {
  static const std::vector<Truth> all{
      {"juwels-cluster-gpu-4xv100.xml",
       {{"0000:37:00.0", {"enp55s0f0"}, 0, false},
        {"0000:37:00.1", {"enp55s0f1"}, 0, false},
        {"0000:37:00.2", {"enp55s0f2"}, 0, false},
        {"0000:37:00.3", {"enp55s0f3"}, 0, false},
        {"0000:5f:00.0", {"ib0", "mlx5_0"}, 0, true},
        {"0000:8a:00.0", {"ib1", "mlx5_1"}, 1, true}},
       {{"0000:5d:00.0", 0, 0, 15.75, {}, {"NODE", "NODE", "NODE", "NODE", "PIX", "SYS"}},
        {"0000:5e:00.0", 0, 0, 15.75, {}, {"NODE", "NODE", "NODE", "NODE", "PIX", "SYS"}},
        {"0000:88:00.0", 1, 1, 15.75, {}, {"SYS", "SYS", "SYS", "SYS", "SYS", "PIX"}},
        {"0000:89:00.0", 1, 1, 15.75, {}, {"SYS", "SYS", "SYS", "SYS", "SYS", "PIX"}}}},
      {"aws-g4dn-metal-8xt4.xml",
       {{"0000:c5:00.0", {"rdmap197s0"}, 1, true}, {"0000:c6:00.0", {"eth0"}, 1, false}},
       {{"0000:18:00.0", 0, 0, 15.75, {"cuda0", "nvml0"}, {"SYS", "SYS"}},
        {"0000:19:00.0", 0, 0, 15.75, {"cuda1", "nvml1"}, {"SYS", "SYS"}},
        {"0000:35:00.0", 0, 0, 15.75, {"cuda2", "nvml2"}, {"SYS", "SYS"}},
        {"0000:36:00.0", 0, 0, 15.75, {"cuda3", "nvml3"}, {"SYS", "SYS"}},
        {"0000:e7:00.0", 1, 1, 15.75, {"cuda4", "nvml4"}, {"NODE", "NODE"}},
        {"0000:e8:00.0", 1, 1, 15.75, {"cuda5", "nvml5"}, {"NODE", "NODE"}},
        {"0000:f4:00.0", 1, 1, 15.75, {"cuda6", "nvml6"}, {"NODE", "NODE"}},
        {"0000:f5:00.0", 1, 1, 15.75, {"cuda7", "nvml7"}, {"NODE", "NODE"}}}},
      {"ibm-ac922-lassen-4xv100.xml",
       {{"0003:01:00.0", {"hsi0", "mlx5_0"}, 0, true},
        {"0003:01:00.1", {"hsi1", "mlx5_1"}, 0, true},
        {"0005:01:00.0", {"enP5p1s0f0"}, 0, false},
        {"0005:01:00.1", {"enP5p1s0f1"}, 0, false},
        {"0033:01:00.0", {"hsi2", "mlx5_2"}, 8, true},
        {"0033:01:00.1", {"hsi3", "mlx5_3"}, 8, true}},
       {{"0004:04:00.0", 0, 0, 15.75, {"cuda0", "nvml0"}, {"NODE", "NODE", "NODE", "NODE", "SYS", "SYS"}},
        {"0004:05:00.0", 0, 0, 15.75, {"cuda1", "nvml1"}, {"NODE", "NODE", "NODE", "NODE", "SYS", "SYS"}},
        {"0035:03:00.0", 8, 1, 15.75, {"cuda2", "nvml2"}, {"SYS", "SYS", "SYS", "SYS", "NODE", "NODE"}},
        {"0035:04:00.0", 8, 1, 15.75, {"cuda3", "nvml3"}, {"SYS", "SYS", "SYS", "SYS", "NODE", "NODE"}}}},
      {"penguin-x1904gt-pascal-2xp100.xml",
       {{"0000:08:00.0", {"hsi0", "mlx5_0"}, 0, true},
        {"0000:0c:00.0", {"enp12s0f0"}, 0, false},
        {"0000:0c:00.1", {"enp12s0f1"}, 0, false}},
       {{"0000:04:00.0", 0, 0, 15.75, {"cuda0", "nvml0"}, {"PIX", "PHB", "PHB"}},
        {"0000:07:00.0", 0, 0, 15.75, {"cuda1", "nvml1"}, {"PIX", "PHB", "PHB"}}}},
      {"redacted-2s-2xk80-mlx4.xml",
       {{"0000:02:00.0", {"enp2s0f0"}, 0, false},
        {"0000:02:00.1", {"enp2s0f1"}, 0, false},
        {"0000:81:00.0", {"mlx4_0"}, 1, true}},
       {{"0000:06:00.0", 0, 0, 0.0, {}, {"PHB", "PHB", "SYS"}},
        {"0000:07:00.0", 0, 0, 0.0, {}, {"PHB", "PHB", "SYS"}},
        {"0000:84:00.0", 1, 1, 0.0, {}, {"SYS", "SYS", "PHB"}},
        {"0000:85:00.0", 1, 1, 0.0, {}, {"SYS", "SYS", "PHB"}}}},
      {"hp-sl390s-g7-3gpu-mlx4.xml",
       {{"0000:04:00.0", {"eth0"}, 0, false},
        {"0000:04:00.1", {"eth1"}, 0, false},
        {"0000:05:00.0", {"eth2", "ib0", "mlx4_0"}, 0, true}},
       {{"0000:06:00.0", 0, 0, 4.00, {}, {"PHB", "PHB", "PHB"}},
        {"0000:14:00.0", 1, 1, 4.00, {}, {"SYS", "SYS", "SYS"}},
        {"0000:11:00.0", 1, 1, 4.00, {}, {"SYS", "SYS", "SYS"}}}},
  };
  return all;
}

std::vector<std::string> all_names(const Device& d) {
  std::vector<std::string> v = d.netdevs;
  v.insert(v.end(), d.rdma_devs.begin(), d.rdma_devs.end());
  std::sort(v.begin(), v.end());
  return v;
}

class GroundTruth : public ::testing::TestWithParam<Truth> {};

TEST_P(GroundTruth, DevicesMatchTheReadme) {
  const Truth& truth = GetParam();
  const NodeTopology t = load_topology_file(test::data_file(truth.file));
  EXPECT_EQ(t.format, SourceFormat::hwloc_xml);
  EXPECT_EQ(t.cpu.packages, 2);
  EXPECT_EQ(t.cpu.numa_nodes.size(), 2u);
  ASSERT_EQ(t.gpus().size(), truth.gpus.size());
  ASSERT_EQ(t.nics().size(), truth.nics.size());
  for (const auto& g : truth.gpus) {
    const Device* d = t.find_device(g.bus_id);
    ASSERT_NE(d, nullptr) << g.bus_id;
    EXPECT_EQ(d->kind, DeviceKind::gpu) << g.bus_id;
    EXPECT_EQ(d->numa(), g.numa) << g.bus_id;
    EXPECT_EQ(d->package, g.package) << g.bus_id;
    if (g.hwloc_GBps > 0) {
      ASSERT_TRUE(d->link.hwloc_GBps.has_value()) << g.bus_id;
      EXPECT_NEAR(*d->link.hwloc_GBps, g.hwloc_GBps, 0.01) << g.bus_id;
    } else {
      EXPECT_FALSE(d->link.hwloc_GBps.has_value()) << g.bus_id;
    }
    for (const auto& os : g.osdevs)
      EXPECT_NE(std::find(d->gpu_devs.begin(), d->gpu_devs.end(), os), d->gpu_devs.end()) << g.bus_id << " " << os;
    if (!g.osdevs.empty()) {
      EXPECT_EQ(d->cuda_ordinal, std::stoi(g.osdevs.front().substr(4))) << g.bus_id;
    }
    ASSERT_FALSE(d->ancestors.empty()) << g.bus_id;
    EXPECT_EQ(d->ancestors.back().kind, Ancestor::Kind::host_bridge) << g.bus_id;
  }
  for (const auto& n : truth.nics) {
    const Device* d = t.find_device(n.bus_id);
    ASSERT_NE(d, nullptr) << n.bus_id;
    EXPECT_EQ(d->kind, DeviceKind::nic) << n.bus_id;
    EXPECT_EQ(d->numa(), n.numa) << n.bus_id;
    auto names = n.names;
    std::sort(names.begin(), names.end());
    EXPECT_EQ(all_names(*d), names) << n.bus_id;
    EXPECT_EQ(d->rdma_capable(), n.rdma) << n.bus_id;
  }
}

TEST_P(GroundTruth, GpuNicPathMatrixMatchesTheReadme) {
  const Truth& truth = GetParam();
  const NodeTopology t = load_topology_file(test::data_file(truth.file));
  for (const auto& g : truth.gpus) {
    const Device* gpu = t.find_device(g.bus_id);
    ASSERT_NE(gpu, nullptr);
    ASSERT_EQ(g.classes.size(), truth.nics.size());
    for (size_t j = 0; j < truth.nics.size(); ++j) {
      const Device* nic = t.find_device(truth.nics[j].bus_id);
      ASSERT_NE(nic, nullptr);
      EXPECT_EQ(to_string(classify_path(*gpu, *nic, t.format).cls), g.classes[j]) << g.bus_id << " x " << nic->bus_id;
      EXPECT_EQ(classify_path(*nic, *gpu, t.format).cls, classify_path(*gpu, *nic, t.format).cls) << "symmetric";
    }
  }
  // gpu_pairs lists every GPU x NIC pair exactly once, with the same classes.
  size_t gpu_nic = 0;
  for (const auto& p : gpu_pairs(t)) {
    const Device* b = t.find_device(p.b);
    if (b->kind != DeviceKind::nic) continue;
    ++gpu_nic;
    EXPECT_EQ(p.path.cls, classify_path(*t.find_device(p.a), *b, t.format).cls);
  }
  EXPECT_EQ(gpu_nic, truth.gpus.size() * truth.nics.size());
}

INSTANTIATE_TEST_SUITE_P(RealMachines, GroundTruth, ::testing::ValuesIn(truths()),
                         [](const ::testing::TestParamInfo<Truth>& p) { return p.param.file.substr(0, p.param.file.find('-')); });

// Devices that must never count as GPUs or NICs: BMC display chips (Matrox, ASPEED, Huawei iBMC,
// AMD ES1000 without an rsmi device), NVSwitches, PLX management endpoints, storage.
TEST(GroundTruth, ExcludesDisplayChipsSwitchesAndStorage) {
  const std::vector<std::pair<std::string, std::string>> excluded{
      {"juwels-cluster-gpu-4xv100.xml", "0000:02:00.0"},   // Matrox G200 VGA
      {"redacted-2s-2xk80-mlx4.xml", "0000:09:00.0"},      // Hi1710 iBMC VGA
      {"hp-sl390s-g7-3gpu-mlx4.xml", "0000:01:03.0"},      // ATI ES1000 (vendor 0x1002, class 0x0300)
      {"penguin-x1904gt-pascal-2xp100.xml", "0000:0b:00.0"},  // ASPEED VGA
      {"dgx2h-16xv100.xml", "0000:61:00.0"},               // NVSwitch
      {"dgx2h-16xv100.xml", "0000:66:00.0"},               // NVSwitch without ids
      {"aws-g4dn-metal-8xt4.xml", "0000:a0:00.0"},         // NVMe
  };
  for (const auto& [file, bus] : excluded)
    EXPECT_EQ(load_topology_file(test::data_file(file)).find_device(bus), nullptr) << file << " " << bus;
}

}  // namespace
}  // namespace gpunet::topo
