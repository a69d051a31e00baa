// DGX-2 (16 GPUs behind two levels of PLX switches, NVSwitches excluded, no NICs in the file) and
// the NCCL topology format (Azure NDv4: 8 GPUs and 8 InfiniBand NICs, NCCL path semantics), plus the
// comparison of NCCL's view with hwloc's.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/topology/helpers.hpp"
#include "topology/nccl_xml.hpp"
#include "topology/paths.hpp"
#include "topology/topology.hpp"

namespace gpunet::topo {
namespace {

TEST(Dgx2, SixteenGpusNoNicsNoNvswitch) {
  const NodeTopology t = load_topology_file(test::data_file("dgx2h-16xv100.xml"));
  const std::vector<std::string> expected{"0000:34:00.0", "0000:36:00.0", "0000:39:00.0", "0000:3b:00.0",
                                          "0000:57:00.0", "0000:59:00.0", "0000:5c:00.0", "0000:5e:00.0",
                                          "0000:b7:00.0", "0000:b9:00.0", "0000:bc:00.0", "0000:be:00.0",
                                          "0000:e0:00.0", "0000:e2:00.0", "0000:e5:00.0", "0000:e7:00.0"};
  const auto gpus = t.gpus();
  ASSERT_EQ(gpus.size(), 16u);
  EXPECT_TRUE(t.nics().empty());
  for (size_t i = 0; i < gpus.size(); ++i) {
    EXPECT_EQ(gpus[i]->bus_id, expected[i]);
    EXPECT_EQ(gpus[i]->numa(), i < 8 ? 0 : 1);
    EXPECT_EQ(gpus[i]->package, i < 8 ? 0 : 1);
    EXPECT_EQ(gpus[i]->device_id, 0x1db8);
  }
}

// The board: pairs of GPUs share a switch (PIX), four share the next switch level (PXB), eight share a
// package across two host bridges (NODE); the two halves are on different sockets (SYS). This is the
// layout NVIDIA publishes for nvidia-smi topo -mp on a DGX-2.
TEST(Dgx2, GpuGpuMatrix) {
  const NodeTopology t = load_topology_file(test::data_file("dgx2h-16xv100.xml"));
  const auto gpus = t.gpus();
  ASSERT_EQ(gpus.size(), 16u);
  for (size_t i = 0; i < 16; ++i)
    for (size_t j = 0; j < 16; ++j) {
      const char* expected = i == j ? "X" : i / 2 == j / 2 ? "PIX" : i / 4 == j / 4 ? "PXB" : i / 8 == j / 8 ? "NODE" : "SYS";
      EXPECT_EQ(to_string(classify_path(*gpus[i], *gpus[j], t.format).cls), expected) << "GPU" << i << " x GPU" << j;
    }
  EXPECT_EQ(gpu_pairs(t).size(), 16u * 15u / 2u);
}

TEST(NcclXml, AzureNdv4DevicesAndLinks) {
  const NodeTopology t = load_topology_file(test::data_file("nccl-azure-ndv4-a100.xml"));
  EXPECT_EQ(t.format, SourceFormat::nccl_xml);
  ASSERT_EQ(t.gpus().size(), 8u);
  ASSERT_EQ(t.nics().size(), 8u);
  ASSERT_EQ(t.cpu.numa_nodes.size(), 4u);
  EXPECT_EQ(t.cpu.numa_nodes[0].cpus, "0-23");
  EXPECT_EQ(t.cpu.numa_nodes[3].cpus, "72-95");
  // numaid of the <cpu> each device sits under.
  const std::vector<std::pair<std::string, int>> numa{
      {"0003:00:00.0", 0}, {"0103:00:00.0", 0}, {"0004:00:00.0", 0}, {"0104:00:00.0", 0},
      {"0001:00:00.0", 1}, {"0101:00:00.0", 1}, {"0002:00:00.0", 1}, {"0102:00:00.0", 1},
      {"000d:00:00.0", 2}, {"0107:00:00.0", 2}, {"000e:00:00.0", 2}, {"0108:00:00.0", 2},
      {"000b:00:00.0", 3}, {"0105:00:00.0", 3}, {"000c:00:00.0", 3}, {"0106:00:00.0", 3}};
  for (const auto& [bus, node] : numa) {
    const Device* d = t.find_device(bus);
    ASSERT_NE(d, nullptr) << bus;
    EXPECT_EQ(d->numa(), node) << bus;
    EXPECT_EQ(d->kind, bus[1] == '1' ? DeviceKind::nic : DeviceKind::gpu) << bus;
    EXPECT_EQ(d->link.usable(), (LinkState{4, 16})) << bus;
    if (d->kind == DeviceKind::nic) {
      EXPECT_TRUE(d->rdma_capable()) << "class 0x0207 is InfiniBand";
    }
  }
  // The virtual switches ffff:ff:0N.0 are bridges, not devices.
  EXPECT_EQ(t.find_device("ffff:ff:01.0"), nullptr);
}

// NCCL semantics: two devices directly below one <pci> switch are PIX; different <cpu> is SYS.
TEST(NcclXml, AzureNdv4PathClasses) {
  const NodeTopology t = load_topology_file(test::data_file("nccl-azure-ndv4-a100.xml"));
  for (const Device* g : t.gpus())
    for (const Device* n : t.nics()) {
      const char* expected = g->numa() == n->numa() ? "PIX" : "SYS";
      EXPECT_EQ(to_string(classify_path(*g, *n, t.format).cls), expected) << g->bus_id << " x " << n->bus_id;
    }
  for (const Device* a : t.gpus())
    for (const Device* b : t.gpus())
      if (a != b) {
        EXPECT_EQ(to_string(classify_path(*a, *b, t.format).cls), a->numa() == b->numa() ? "PIX" : "SYS");
      }
}

// A hand-written NCCL view of the Penguin node, nested as NCCL nests a PCIe switch: one <pci>
// for the switch, devices directly below it.
constexpr const char* kPenguinNccl = R"(<system version="1">
  <cpu numaid="0" affinity="003ffff0,0003ffff" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="79">
    <pci busid="0000:02:00.0" class="0x060400" link_speed="8.0 GT/s PCIe" link_width="16">
      <pci busid="0000:04:00.0" class="0x030200" vendor="0x10de" device="0x15f8" link_speed="8.0 GT/s PCIe" link_width="16">
        <gpu dev="0" sm="60" rank="0" gdr="1"/>
      </pci>
      <pci busid="0000:07:00.0" class="0x030200" vendor="0x10de" device="0x15f8" link_speed="8.0 GT/s PCIe" link_width="16">
        <gpu dev="1" sm="60" rank="1" gdr="1"/>
      </pci>
      <pci busid="0000:08:00.0" class="0x020700" vendor="0x15b3" device="0x1017" link_speed="8.0 GT/s PCIe" link_width="16">
        <nic><net name="mlx5_0" dev="0" speed="100000" port="1" gdr="1"/></nic>
      </pci>
    </pci>
    <pci busid="0000:0c:00.0" class="0x020000" vendor="0x8086" device="0x1521" link_speed="5.0 GT/s PCIe" link_width="4"/>
    <pci busid="0000:0c:00.1" class="0x020000" vendor="0x8086" device="0x1521" link_speed="5.0 GT/s PCIe" link_width="4"/>
  </cpu>
</system>
)";

std::string write_temp(const test::FakeRoot& root, const std::string& name, const std::string& text) {
  root.write(name, text);
  return (std::filesystem::path(root.sys()).parent_path() / name).string();
}

TEST(NcclXml, ReadsGpuAndNicChildren) {
  test::FakeRoot root;
  const NodeTopology t = load_topology_file(write_temp(root, "penguin-nccl.xml", kPenguinNccl));
  ASSERT_EQ(t.gpus().size(), 2u);
  ASSERT_EQ(t.nics().size(), 3u);
  EXPECT_EQ(t.find_device("0000:07:00.0")->cuda_ordinal, 1);
  const Device* ib = t.find_device("0000:08:00.0");
  EXPECT_EQ(ib->rdma_devs, std::vector<std::string>{"mlx5_0"});
  EXPECT_DOUBLE_EQ(nic_line_rate_Gbps(t, *ib), 100.0);
  EXPECT_EQ(t.find_device("0000:0c:00.0")->link.usable(), (LinkState{2, 4}));
  EXPECT_EQ(t.cpu.numa_nodes.at(0).cpus, "0-17,36-53");
}

TEST(NcclXml, AgreesWithHwlocOnTheSameNode) {
  test::FakeRoot root;
  const NodeTopology nccl = load_topology_file(write_temp(root, "penguin-nccl.xml", kPenguinNccl));
  const NodeTopology hw = load_topology_file(test::data_file("penguin-x1904gt-pascal-2xp100.xml"));
  // Same classes under each format's rules (NCCL folds the switch ports; NCCL's PHB covers NODE).
  EXPECT_EQ(classify_path(*nccl.find_device("0000:04:00.0"), *nccl.find_device("0000:08:00.0"), nccl.format).cls,
            PathClass::PIX);
  EXPECT_EQ(classify_path(*nccl.find_device("0000:04:00.0"), *nccl.find_device("0000:0c:00.0"), nccl.format).cls,
            PathClass::PHB);
  EXPECT_TRUE(compare_views(hw, nccl).empty());
}

TEST(NcclXml, ReportsWhereItDisagreesWithHwloc) {
  test::FakeRoot root;
  std::string text = kPenguinNccl;
  // Move the NIC out of the GPUs' switch and to another NUMA node; drop one GPU.
  const auto nic_start = text.find("      <pci busid=\"0000:08:00.0\"");
  const auto nic_end = text.find("</pci>", nic_start) + 7;
  const std::string nic = text.substr(nic_start, nic_end - nic_start);
  text.erase(nic_start, nic_end - nic_start);
  const auto gpu1 = text.find("      <pci busid=\"0000:07:00.0\"");
  text.erase(gpu1, text.find("</pci>", gpu1) + 7 - gpu1);
  text.replace(text.find("</system>"), 9, "  <cpu numaid=\"1\" affinity=\"ff\">\n" + nic + "  </cpu>\n</system>");
  const NodeTopology nccl = load_topology_file(write_temp(root, "bad-nccl.xml", text));
  const NodeTopology hw = load_topology_file(test::data_file("penguin-x1904gt-pascal-2xp100.xml"));
  const auto findings = compare_views(hw, nccl);
  auto mentions = [&](const std::string& needle) {
    return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
      return f.kind == "nccl_disagrees" && f.message.find(needle) != std::string::npos;
    });
  };
  EXPECT_TRUE(mentions("GPU 0000:07:00.0")) << "GPU missing from NCCL's file";
  EXPECT_TRUE(mentions("NUMA node 1 in NCCL's topology file but on NUMA node 0")) << "NIC NUMA";
  EXPECT_TRUE(mentions("0000:04:00.0/0000:08:00.0 SYS in NCCL's file, PIX by hwloc")) << "path class";
  for (const auto& f : findings) EXPECT_EQ(f.severity, Severity::warning);
}

TEST(NcclXml, RejectsABadBusId) {
  test::FakeRoot root;
  const std::string path =
      write_temp(root, "bad.xml", "<system version=\"1\"><cpu numaid=\"0\"><pci busid=\"zz\" class=\"0x030200\"/></cpu></system>");
  EXPECT_THROW(load_topology_file(path), InputError);
}

}  // namespace
}  // namespace gpunet::topo
