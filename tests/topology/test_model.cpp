// Pure pieces: PCIe generation parsing and bandwidth (report/CEILINGS.md §3.1), bus ids, CPU lists, the
// GPU/NIC classification rules, and path classes on hand-built devices.
#include <gtest/gtest.h>

#include "topology/classify.hpp"
#include "topology/paths.hpp"
#include "topology/pcie.hpp"

namespace gpunet::topo {
namespace {

TEST(Pcie, GenerationFromKernelAndNcclStrings) {
  EXPECT_EQ(pcie_gen_from_speed("2.5 GT/s PCIe"), 1);
  EXPECT_EQ(pcie_gen_from_speed("2.5 GT/s"), 1);
  EXPECT_EQ(pcie_gen_from_speed("5 GT/s"), 2);
  EXPECT_EQ(pcie_gen_from_speed("5.0 GT/s PCIe"), 2);
  EXPECT_EQ(pcie_gen_from_speed("8 GT/s"), 3);
  EXPECT_EQ(pcie_gen_from_speed("16.0 GT/s PCIe"), 4);
  EXPECT_EQ(pcie_gen_from_speed("32.0 GT/s PCIe"), 5);
  EXPECT_EQ(pcie_gen_from_speed("64.0 GT/s PCIe"), 6);
  EXPECT_FALSE(pcie_gen_from_speed("Unknown"));
  EXPECT_FALSE(pcie_gen_from_speed("33 MHz PCI"));
  EXPECT_FALSE(pcie_gen_from_speed("12 GT/s"));
  EXPECT_FALSE(pcie_gen_from_speed(""));
}

TEST(Pcie, BandwidthPerGenerationAndWidth) {
  EXPECT_NEAR(pcie_GBps(1, 16), 4.000, 0.001);
  EXPECT_NEAR(pcie_GBps(2, 16), 8.000, 0.001);
  EXPECT_NEAR(pcie_GBps(3, 16), 15.754, 0.001);
  EXPECT_NEAR(pcie_GBps(4, 16), 31.508, 0.001);
  EXPECT_NEAR(pcie_GBps(5, 16), 63.015, 0.001);
  EXPECT_NEAR(pcie_GBps(6, 16), 121.0, 0.001);
  EXPECT_NEAR(pcie_GBps(3, 8), 7.877, 0.001);
  EXPECT_NEAR(pcie_GBps(3, 1), 0.9846, 0.0001);
  EXPECT_EQ(pcie_GBps(0, 16), 0.0);
  EXPECT_EQ(pcie_GBps(3, 0), 0.0);
  EXPECT_EQ(describe(LinkState{4, 16}), "Gen4 x16");
  EXPECT_EQ(describe(LinkState{3, 0}), "Gen3 x?");
  EXPECT_EQ(describe(LinkState{}), "unknown");
}

TEST(Pcie, UsableIsTheMinimumOfKnownMaxima) {
  PcieLink l;
  l.max = {4, 16};
  l.upstream_max = {3, 16};
  EXPECT_EQ(l.usable(), (LinkState{3, 16}));
  l.upstream_max = {5, 8};
  EXPECT_EQ(l.usable(), (LinkState{4, 8}));
  l.upstream_max = {};
  EXPECT_EQ(l.usable(), (LinkState{4, 16}));
  l.current = {1, 16};
  EXPECT_EQ(l.usable(), (LinkState{4, 16})) << "the current state does not lower the usable link";
}

TEST(Model, BusIdsAndCpuLists) {
  EXPECT_EQ(parse_bus_id("0000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(parse_bus_id("3b:00.1"), "0000:3b:00.1");
  EXPECT_EQ(parse_bus_id("00000035:03:00.0"), "0035:03:00.0");
  EXPECT_FALSE(parse_bus_id("pci0000:00"));
  EXPECT_FALSE(parse_bus_id("0000:00:03.0x"));
  EXPECT_FALSE(parse_bus_id("0000:100:00.0"));
  EXPECT_FALSE(parse_bus_id("0000:00:03:0"));
  EXPECT_FALSE(parse_bus_id(""));
  EXPECT_EQ(format_bus_id(0x35, 3, 0, 0), "0035:03:00.0");
  EXPECT_EQ(cpu_list({5, 0, 1, 2, 7, 6, 9}), "0-2,5-7,9");
  EXPECT_EQ(cpu_list({}), "");
}

TEST(Classify, GpusByVendorAndClass) {
  EXPECT_EQ(classify_pci_function({0x10de, 0x0302, {}, false, false}), DeviceKind::gpu);
  EXPECT_EQ(classify_pci_function({0x10de, 0x0300, {}, false, false}), DeviceKind::gpu);
  EXPECT_FALSE(classify_pci_function({0x10de, 0x0680, {}, false, false})) << "NVSwitch";
  EXPECT_EQ(classify_pci_function({0x1002, 0x0380, {}, false, false}), DeviceKind::gpu) << "AMD Instinct";
  EXPECT_EQ(classify_pci_function({0x1002, 0x1200, {}, false, false}), DeviceKind::gpu);
  EXPECT_FALSE(classify_pci_function({0x1002, 0x0300, {"card0"}, false, false})) << "ES1000 BMC display";
  EXPECT_EQ(classify_pci_function({0x1002, 0x0300, {"rsmi0", "card1"}, false, false}), DeviceKind::gpu);
  EXPECT_FALSE(classify_pci_function({0x1a03, 0x0300, {"card0"}, false, false})) << "ASPEED";
  EXPECT_FALSE(classify_pci_function({0x10b5, 0x0880, {}, false, false})) << "PLX management endpoint";
}

TEST(Classify, NicsByClassOrOsDevice) {
  EXPECT_EQ(classify_pci_function({0x8086, 0x0200, {}, false, false}), DeviceKind::nic);
  EXPECT_EQ(classify_pci_function({0x15b3, 0x0207, {}, false, false}), DeviceKind::nic);
  EXPECT_EQ(classify_pci_function({0x15b3, 0x0280, {}, false, false}), DeviceKind::nic) << "ConnectX-3";
  EXPECT_EQ(classify_pci_function({0x15b3, 0x0c06, {}, false, false}), DeviceKind::nic) << "IB on class 0x0c06";
  EXPECT_EQ(classify_pci_function({0x1d0f, 0x0000, {}, false, true}), DeviceKind::nic) << "RDMA device only";
  EXPECT_EQ(classify_pci_function({0x1af4, 0x0000, {}, true, false}), DeviceKind::nic) << "netdev only";
  EXPECT_FALSE(classify_pci_function({0x8086, 0x0106, {}, false, false})) << "SATA";
  EXPECT_EQ(cuda_ordinal_from_osdev("cuda12"), 12);
  EXPECT_EQ(cuda_ordinal_from_osdev("cuda"), -1);
  EXPECT_EQ(cuda_ordinal_from_osdev("nvml0"), -1);
  EXPECT_EQ(cuda_ordinal_from_osdev("cudax"), -1);
}

Device device(const std::string& bus, std::vector<Ancestor> chain, int numa, int package) {
  Device d;
  d.bus_id = bus;
  d.ancestors = std::move(chain);
  d.numa_nodes = {numa};
  d.package = package;
  return d;
}

Ancestor pci(const std::string& id) { return {Ancestor::Kind::pci_bridge, id, id, id}; }
Ancestor host(const std::string& id) { return {Ancestor::Kind::host_bridge, id, "", id}; }

TEST(Paths, ClassesFromBridgeChains) {
  // host H1 > root port R1 > switch up U > downstream D1 > a, D2 > b, D3 > deeper switch U2 > D4 > c
  const Device a = device("0000:04:00.0", {pci("D1"), pci("U"), pci("R1"), host("H1")}, 0, 0);
  const Device b = device("0000:05:00.0", {pci("D2"), pci("U"), pci("R1"), host("H1")}, 0, 0);
  const Device c = device("0000:07:00.0", {pci("D4"), pci("U2"), pci("D3"), pci("U"), pci("R1"), host("H1")}, 0, 0);
  const Device d = device("0000:09:00.0", {pci("R2"), host("H1")}, 0, 0);
  const Device e = device("0000:40:00.0", {pci("R3"), host("H2")}, 0, 0);
  const Device f = device("0000:80:00.0", {pci("R4"), host("H3")}, 1, 1);
  const Device g = device("0000:60:00.0", {pci("R5"), host("H4")}, 2, 0);  // other sub-NUMA node, package 0
  const Device a_fn1 = device("0000:04:00.1", {pci("D1"), pci("U"), pci("R1"), host("H1")}, 0, 0);
  const auto cls = [](const Device& x, const Device& y) { return classify_path(x, y, SourceFormat::hwloc_xml); };
  EXPECT_EQ(cls(a, a).cls, PathClass::X);
  EXPECT_EQ(cls(a, b).cls, PathClass::PIX);
  EXPECT_EQ(cls(a, a_fn1).cls, PathClass::PIX);
  EXPECT_EQ(cls(a, c).cls, PathClass::PXB);
  EXPECT_EQ(cls(a, d).cls, PathClass::PHB);
  EXPECT_EQ(cls(a, e).cls, PathClass::NODE);
  EXPECT_EQ(cls(a, f).cls, PathClass::SYS);
  EXPECT_FALSE(cls(a, f).same_package);
  EXPECT_EQ(cls(a, g).cls, PathClass::SYS) << "sub-NUMA domains are SYS, as nvidia-smi and NCCL see them";
  EXPECT_TRUE(cls(a, g).same_package);
  // NCCL files fold switch ports: PIX needs both devices directly below the common element.
  const Device na = device("0000:04:00.0", {pci("U"), host("cpu0")}, 0, -1);
  const Device nb = device("0000:05:00.0", {pci("U"), host("cpu0")}, 0, -1);
  const Device nc = device("0000:07:00.0", {pci("U2"), pci("U"), host("cpu0")}, 0, -1);
  EXPECT_EQ(classify_path(na, nb, SourceFormat::nccl_xml).cls, PathClass::PIX);
  EXPECT_EQ(classify_path(na, nc, SourceFormat::nccl_xml).cls, PathClass::PXB);
  EXPECT_EQ(path_class_from_string("NODE"), PathClass::NODE);
  EXPECT_FALSE(path_class_from_string("NV12"));
}

}  // namespace
}  // namespace gpunet::topo
