// The topology report fixtures (tests/data/report/topology/*.json): real machines' exports taken
// through the topology library into what the topo suite hands to the report (the node's JSON
// section and its findings). Two GPU machines from their hwloc exports, and a CPU-only node: the
// project's CI VM's export with a sysfs/procfs tree that says what its kernel says about eth0.
// The report side renders these fixtures and compares with golden Markdown
// (tests/report/document/test_topology_section.cpp).
//
// Regenerate after a deliberate change to the topology JSON or the findings:
//   GPUNET_UPDATE_GOLDEN=1 build/tests/topology_tests --gtest_filter='ReportFixture.*'
//   GPUNET_UPDATE_GOLDEN=1 build/tests/report/report_tests --gtest_filter='TopologySection.*'
// then review the diff before committing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tests/topology/helpers.hpp"
#include "topology/json.hpp"
#include "topology/topology.hpp"

namespace gpunet::topo {
namespace {

std::string fixture_path(const std::string& name) {
  return std::string(GPUNET_TOPOLOGY_DATA_DIR) + "/../report/topology/" + name + ".json";
}

// The payload the topo suite sends rank 0 for one node: host, section and findings.
gpunet::json payload(NodeTopology t, const std::string& host, const std::string& file) {
  t.hostname = host;
  t.source = file;  // the file name, not this checkout's path
  gpunet::json findings = gpunet::json::array();
  for (const auto& f : analyze(t, {true, ""})) findings.push_back(to_json(f));
  return {{"host", host}, {"section", to_json(t)}, {"findings", findings}};
}

void check_fixture(const std::string& name, const gpunet::json& actual) {
  const std::string path = fixture_path(name);
  const std::string text = actual.dump(1) + "\n";
  const char* update = std::getenv("GPUNET_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << text;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path << " is missing: run with GPUNET_UPDATE_GOLDEN=1";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(gpunet::json::parse(ss.str()), actual)
      << path << " is not what the topology library makes of the export now (GPUNET_UPDATE_GOLDEN=1 rewrites it)";
}

TEST(ReportFixture, PenguinPascalTwoP100) {
  const std::string file = "penguin-x1904gt-pascal-2xp100.xml";
  check_fixture("penguin-pascal", payload(load_topology_file(test::data_file(file)), "pascal-node", file));
}

TEST(ReportFixture, JuwelsFourV100) {
  const std::string file = "juwels-cluster-gpu-4xv100.xml";
  check_fixture("juwels-gpu", payload(load_topology_file(test::data_file(file)), "juwels-node", file));
}

TEST(ReportFixture, CpuOnlyCiVm) {
  const std::string file = "ci-vm-cpu-only.xml";
  NodeTopology t = load_topology_file(test::data_file(file));
  test::FakeRoot root;
  const std::string nic = root.add_pci({"0000:00:03.0"});
  root.add_netdev("eth0", nic, "-1", 1400, "up", "virtio_net");
  root.write("proc/net/route",
             "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
             "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
             "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n");
  enrich_from_system(t, {root.sys(), root.proc(), false});
  const auto p = payload(t, "ci-vm", file);
  ASSERT_TRUE(p["section"]["gpus"].empty()) << "a CPU-only node";
  ASSERT_EQ(p["section"]["interfaces"].size(), 1u);
  EXPECT_EQ(p["section"]["interfaces"][0]["mtu"], 1400);
  EXPECT_EQ(p["section"]["interfaces"][0]["numa_node"], 0) << "the NUMA node of the NIC behind it";
  check_fixture("ci-vm-cpu-only", p);
}

}  // namespace
}  // namespace gpunet::topo
