// The PCIe link of a GPU from a fake sysfs tree: speeds to generations, the Max Payload Size from
// config space, the upstream port's limit, and the JSON the pcie records carry.
#include <gtest/gtest.h>

#include "bench/engines/pcie_link.hpp"
#include "tests/support/fake_tree.hpp"

using namespace gpunet::bench::gpu;
using gpunet::test::FakeTree;

namespace {
// 256 bytes of config space with a capability chain: power management at 0x40, then PCI Express
// at 0x60 with Device Control's MPS field (bits 7:5) = code.
std::string config_space(int mps_code) {
  std::string c(256, '\0');
  c[0x06] = 0x10;  // Status: capabilities list
  c[0x34] = 0x40;
  c[0x40] = 0x01;  // PM
  c[0x41] = 0x60;
  c[0x60] = 0x10;  // PCI Express
  c[0x61] = 0x00;
  c[0x68] = static_cast<char>((mps_code & 7) << 5 | 0x0f);
  return c;
}
std::vector<uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }
}  // namespace

TEST(PcieLink, GenerationFromSysfsSpeedText) {
  EXPECT_EQ(pcie_gen_from_speed("2.5 GT/s PCIe"), 1);
  EXPECT_EQ(pcie_gen_from_speed("5.0 GT/s PCIe"), 2);
  EXPECT_EQ(pcie_gen_from_speed("8 GT/s"), 3);  // kernels before 5.6
  EXPECT_EQ(pcie_gen_from_speed("16.0 GT/s PCIe"), 4);
  EXPECT_EQ(pcie_gen_from_speed("32.0 GT/s PCIe"), 5);
  EXPECT_EQ(pcie_gen_from_speed("64.0 GT/s PCIe"), 6);
  EXPECT_FALSE(pcie_gen_from_speed("Unknown"));
  EXPECT_FALSE(pcie_gen_from_speed("33 MHz PCI"));
}

TEST(PcieLink, MaxPayloadSizeFromConfigSpace) {
  EXPECT_EQ(mps_from_config(bytes(config_space(0))), 128);
  EXPECT_EQ(mps_from_config(bytes(config_space(1))), 256);
  EXPECT_EQ(mps_from_config(bytes(config_space(2))), 512);
  EXPECT_EQ(mps_from_config(bytes(config_space(1).substr(0, 64))), 0);  // non-root: only 64 bytes readable
  std::string no_caps = config_space(1);
  no_caps[0x06] = 0;
  EXPECT_EQ(mps_from_config(bytes(no_caps)), 0);
  std::string loop = config_space(1);
  loop[0x60] = 0x05;  // not PCIe ...
  loop[0x61] = 0x40;  // ... and pointing back: the walk must end
  EXPECT_EQ(mps_from_config(bytes(loop)), 0);
}

TEST(PcieLink, BusIdsInSysfsForm) {
  EXPECT_EQ(normalize_bus_id("0000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(normalize_bus_id("00000000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(normalize_bus_id("3b:00.0"), "0000:3b:00.0");
}

TEST(PcieLink, ReadsDeviceAndUpstreamPortFromSysfs) {
  FakeTree t;
  const std::string port = "sys/devices/pci0000:00/0000:00:01.0";
  const std::string dev = port + "/0000:01:00.0";
  t.write(port + "/max_link_speed", "16.0 GT/s PCIe\n");  // the slot is Gen4
  t.write(port + "/max_link_width", "16\n");
  t.write(dev + "/current_link_speed", "16.0 GT/s PCIe\n");
  t.write(dev + "/current_link_width", "8\n");
  t.write(dev + "/max_link_speed", "32.0 GT/s PCIe\n");  // the GPU could do Gen5
  t.write(dev + "/max_link_width", "16\n");
  t.write(dev + "/numa_node", "1\n");
  t.write(dev + "/config", config_space(1));
  t.link("sys/bus/pci/devices/0000:01:00.0", t.path(dev));
  const auto l = read_pcie_link(t.path("sys"), "0000:01:00.0");
  EXPECT_EQ(l.gen, 4);
  EXPECT_EQ(l.width, 8);
  EXPECT_EQ(l.max_gen, 4);  // limited by the upstream port
  EXPECT_EQ(l.max_width, 16);
  EXPECT_EQ(l.mps, 256);
  EXPECT_EQ(l.numa_node, 1);
  const auto j = to_json(l);
  EXPECT_EQ(j["gen"], 4);
  EXPECT_EQ(j["width"], 8);
  EXPECT_EQ(j["mps"], 256);
  EXPECT_EQ(j["gpu_numa"], 1);
  EXPECT_EQ(j["speed"], "16.0 GT/s PCIe");
}

TEST(PcieLink, MissingDeviceLeavesEverythingUnknown) {
  FakeTree t;
  const auto l = read_pcie_link(t.path("sys"), "0000:99:00.0");
  EXPECT_EQ(l.gen, 0);
  EXPECT_EQ(l.mps, 0);
  EXPECT_EQ(l.numa_node, -1);
  EXPECT_EQ(to_json(l), gpunet::json({{"bus_id", "0000:99:00.0"}}));
}
