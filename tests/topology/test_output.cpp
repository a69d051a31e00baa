// The renderers and the report.json section; bad input files; live discovery on this machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "tests/topology/helpers.hpp"
#include "topology/json.hpp"
#include "topology/render.hpp"
#include "topology/sysfs_util.hpp"
#include "topology/topology.hpp"

namespace gpunet::topo {
namespace {

TEST(Render, MatrixLikeNvidiaSmi) {
  const NodeTopology t = load_topology_file(test::data_file("penguin-x1904gt-pascal-2xp100.xml"));
  const std::string text = render_matrix(t);
  EXPECT_NE(text.find("       GPU0   GPU1   NIC0   NIC1   NIC2   CPU Affinity    NUMA Affinity\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("GPU0   X      PIX    PIX    PHB    PHB    0-17,36-53      0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("NIC1   PHB    PHB    PHB    X      PIX"), std::string::npos) << text;
  EXPECT_NE(text.find("Legend:"), std::string::npos);
  EXPECT_NE(text.find("  PIX  = "), std::string::npos);
  EXPECT_EQ(text.find("SYS*"), std::string::npos) << "no sub-NUMA legend without sub-NUMA pairs";
  EXPECT_NE(text.find("NIC0:  0000:08:00.0  hsi0, mlx5_0"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU1:  0000:07:00.0  cuda1"), std::string::npos) << text;
  EXPECT_NE(text.find("idle GPU"), std::string::npos);
}

TEST(Render, SubNumaPairsAreMarked) {
  const std::string text = render_matrix(load_topology_file(test::data_file("synthetic-snc-2x2.xml")));
  EXPECT_NE(text.find("GPU0   X      SYS    SYS*"), std::string::npos) << text;
  EXPECT_NE(text.find("  SYS* = "), std::string::npos) << text;
}

TEST(Render, FindingsMostSevereFirst) {
  const std::vector<Finding> f{{Severity::info, "a", "Informative.", {}, "n1"},
                               {Severity::warning, "b", "Worrying.", {}, ""}};
  EXPECT_EQ(render_findings(f), "Findings (2):\n  [warning] Worrying.\n  [info] n1: Informative.\n");
  EXPECT_EQ(render_findings({}), "Findings: none.\n");
}

TEST(Json, EveryDeviceByBusIdAndEveryPairAsAnObject) {
  const NodeTopology t = load_topology_file(test::data_file("juwels-cluster-gpu-4xv100.xml"));
  const gpunet::json j = to_json(t);
  ASSERT_EQ(j.at("gpus").size(), 4u);
  ASSERT_EQ(j.at("nics").size(), 6u);
  EXPECT_EQ(j["gpus"][0]["bus_id"], "0000:5d:00.0");
  EXPECT_EQ(j["gpus"][0]["numa_node"], 0);
  EXPECT_EQ(j["gpus"][0]["vendor_id"], "0x10de");
  EXPECT_EQ(j["gpus"][0]["class"], "0x0302");
  EXPECT_NEAR(j["gpus"][0]["pcie"]["hwloc_GBps"].get<double>(), 15.75, 0.01);
  EXPECT_TRUE(j["gpus"][0]["pcie"]["usable"].is_null()) << "unknown is null, not guessed";
  EXPECT_TRUE(j["gpus"][0]["cuda_ordinal"].is_null());
  const auto& bridges = j["gpus"][0]["bridges"];
  ASSERT_EQ(bridges.size(), 4u);
  EXPECT_EQ(bridges[0]["kind"], "host");
  EXPECT_EQ(bridges[3]["bus_id"], "0000:5c:00.0");
  EXPECT_EQ(j["nics"][4]["os_devices"]["rdma"], gpunet::json::array({"mlx5_0"}));
  // 4*3/2 GPU pairs + 4*6 GPU x NIC pairs, each {a, b, class}.
  ASSERT_EQ(j.at("pairs").size(), 6u + 24u);
  std::set<std::string> seen;
  for (const auto& p : j["pairs"]) {
    ASSERT_TRUE(p.contains("a") && p.contains("b") && p.contains("class"));
    seen.insert(p["a"].get<std::string>() + " " + p["b"].get<std::string>() + " " + p["class"].get<std::string>());
  }
  EXPECT_TRUE(seen.count("0000:5d:00.0 0000:5e:00.0 PIX"));
  EXPECT_TRUE(seen.count("0000:88:00.0 0000:8a:00.0 PIX"));
  EXPECT_TRUE(seen.count("0000:5d:00.0 0000:8a:00.0 SYS"));
  EXPECT_EQ(j["cpu"]["packages"], 2);
  EXPECT_NE(j["matrix_text"].get<std::string>().find("GPU0"), std::string::npos);
}

TEST(Json, FindingRoundTrip) {
  const Finding f{Severity::warning, "gpu_nic_sys", "A sentence.", {"0000:18:00.0"}, "host1"};
  const Finding back = finding_from_json(gpunet::json::parse(to_json(f).dump()));
  EXPECT_EQ(to_json(back), to_json(f));
  EXPECT_THROW(finding_from_json({{"severity", "fatal"}, {"kind", ""}, {"message", ""}, {"subjects", {}}, {"node", ""}}),
               std::invalid_argument);
}

TEST(InputErrors, MissingEmptyMalformedAndForeignFiles) {
  test::FakeRoot r;
  const std::string dir = std::filesystem::path(r.sys()).parent_path().string();
  auto message = [](const std::string& path) {
    try {
      load_topology_file(path);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no InputError");
  };
  const std::string missing = message(dir + "/nope.xml");
  EXPECT_NE(missing.find("nope.xml: no such file"), std::string::npos) << missing;
  r.write("empty.xml", "");
  EXPECT_NE(message(dir + "/empty.xml").find("empty"), std::string::npos);
  r.write("broken.xml", "<topology version=\"2.0\"><object type=\"Machine\">");
  const std::string broken = message(dir + "/broken.xml");
  EXPECT_NE(broken.find("malformed XML"), std::string::npos) << broken;
  r.write("other.xml", "<html><body/></html>");
  EXPECT_NE(message(dir + "/other.xml").find("neither an hwloc"), std::string::npos);
  r.write("bad-hwloc.xml", "<topology version=\"2.0\"><object type=\"NoSuchType\"/></topology>");
  EXPECT_NE(message(dir + "/bad-hwloc.xml").find("lstopo XML export"), std::string::npos);
  EXPECT_NE(message(dir).find("directory"), std::string::npos);
  for (const auto* p : {"/nope.xml", "/empty.xml", "/broken.xml", "/other.xml", "/bad-hwloc.xml"})
    EXPECT_EQ(message(dir + p).find('\n'), std::string::npos) << "one line";
}

// Checked against sysfs read independently: the GPUs are the NVIDIA 3D/VGA functions (none on the
// CPU-only build machine), the NICs include every PCI function behind a /sys/class/net entry.
TEST(Live, DiscoversThisMachineSanely) {
  const NodeTopology t = discover_local();
  std::set<std::string> nvidia;
  for (const auto& id : fsutil::list_dir("/sys/bus/pci/devices")) {
    const auto dir = std::filesystem::path("/sys/bus/pci/devices") / id;
    const auto cls = fsutil::read_int(dir / "class").value_or(0) >> 8;
    if (fsutil::read_int(dir / "vendor").value_or(0) == 0x10de && (cls == 0x0302 || cls == 0x0300)) nvidia.insert(id);
  }
  std::set<std::string> gpus;
  for (const Device* g : t.gpus()) gpus.insert(g->bus_id);
  if (nvidia.empty()) {
    EXPECT_TRUE(gpus.empty());
  }
  for (const auto& id : nvidia) EXPECT_TRUE(gpus.count(id)) << id << " is an NVIDIA GPU";
  EXPECT_EQ(t.format, SourceFormat::live);
  EXPECT_FALSE(t.hostname.empty());
  EXPECT_GE(t.cpu.packages, 1);
  EXPECT_GE(t.cpu.pus, 1);
  EXPECT_GE(t.cpu.numa_nodes.size(), 1u);
  std::set<std::string> pci_netdev_functions;
  for (const auto& name : fsutil::list_dir("/sys/class/net"))
    if (auto id = fsutil::pci_function_of("/sys/class/net/" + name + "/device")) pci_netdev_functions.insert(*id);
  std::set<std::string> nic_functions;
  for (const Device* n : t.nics()) nic_functions.insert(n->bus_id);
  for (const auto& id : pci_netdev_functions) EXPECT_TRUE(nic_functions.count(id)) << id << " has a netdev";
  for (const auto& i : t.interfaces) EXPECT_NE(i.name, "lo");
  const std::string text = render_matrix(t);
  EXPECT_NE(text.find("Topology of " + t.hostname), std::string::npos);
  EXPECT_NO_THROW(to_json(t).dump());
  EXPECT_NO_THROW(analyze(t, {true, ""}));
}

}  // namespace
}  // namespace gpunet::topo
