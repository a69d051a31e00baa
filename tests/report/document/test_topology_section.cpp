// The topology section of report.md and report.html.
// Golden: the report fixtures of real machines (tests/data/report/topology/*.json, written from
// their exports by tests/topology/test_report_fixtures.cpp) rendered into the Markdown section must
// equal tests/data/report/topology/*.md. Regenerate after a deliberate change (review the diff):
//   GPUNET_UPDATE_GOLDEN=1 build/tests/report/report_tests --gtest_filter='TopologySection.*'
// Kinds: identical CPU-only nodes of a fake-cluster-like run are one kind; a host whose NIC speed
// differs is a kind of its own.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "gpunet/build_config.h"
#include "report/render/renderers.hpp"
#include "report/document/table_model.hpp"
#include "report/document/topology_model.hpp"
#include "report/render/section_render.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

// The topology section as report.md and report.html lay it out.
std::string topology_md(const TopoSectionText& text) {
  return section_markdown(topology_section(text));
}
std::string topology_md(const Report& rep) { return topology_md(topology_text(rep)); }
std::string topology_page(const Report& rep) {
  return section_html(topology_section(rep), 0.8);
}

const std::filesystem::path kTopoDir = std::filesystem::path(GPUNET_SOURCE_DIR) / "tests/data/report/topology";

std::string topo_slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A one-node report as the topo suite leaves it: the node's section and its topo/node record.
Report topo_report_of(const std::string& fixture) {
  const json p = json::parse(topo_slurp(kTopoDir / (fixture + ".json")));
  Report rep;
  const std::string host = p.at("host").get<std::string>();
  rep.provenance.hosts = {host};
  rep.topology[host] = p.at("section");
  Record r;
  r.suite = "topo";
  r.name = "node";
  r.variant = host;
  r.host = host;
  r.extra = {{"findings", p.at("findings")}};
  rep.results.push_back(r);
  return rep;
}

void check_topo_golden(const std::string& fixture) {
  const std::string actual = topology_md(topo_report_of(fixture));
  const auto path = kTopoDir / (fixture + ".md");
  const char* update = std::getenv("GPUNET_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing: run with GPUNET_UPDATE_GOLDEN=1";
  EXPECT_EQ(topo_slurp(path), actual) << "the topology section differs from " << path
                                 << " (GPUNET_UPDATE_GOLDEN=1 rewrites it after a deliberate change)";
}

TEST(TopologySection, GoldenPenguinPascal) { check_topo_golden("penguin-pascal"); }
TEST(TopologySection, GoldenJuwelsGpu) { check_topo_golden("juwels-gpu"); }
TEST(TopologySection, GoldenCpuOnlyNode) { check_topo_golden("ci-vm-cpu-only"); }

TEST(TopologySection, GpuNodeShowsMatrixLinksAndFindings) {
  const std::string md = topology_md(topo_report_of("juwels-gpu"));
  EXPECT_NE(md.find("GPU/NIC paths"), std::string::npos);
  EXPECT_NE(md.find("PCIe links"), std::string::npos);
  EXPECT_NE(md.find("Topology findings"), std::string::npos);
  EXPECT_EQ(md.find("- none recorded"), std::string::npos) << "the juwels export has findings";
}

TEST(TopologySection, CpuOnlyNodeHasNoMatrixButItsInterfaces) {
  const Report rep = topo_report_of("ci-vm-cpu-only");
  const std::string md = topology_md(rep);
  EXPECT_EQ(md.find("GPU/NIC paths"), std::string::npos) << "no matrix without GPUs";
  EXPECT_NE(md.find("Network interfaces"), std::string::npos);
  const auto m = node_topology_model(rep, "ci-vm");
  ASSERT_EQ(m.interfaces.size(), 1u);
  EXPECT_EQ(m.interfaces[0].name, "eth0");
  EXPECT_EQ(m.interfaces[0].mtu, 1400);
  EXPECT_EQ(m.interfaces[0].numa, 0);
  EXPECT_FALSE(m.interfaces[0].speed_Gbps) << "the kernel says -1: unknown, not guessed";
  EXPECT_EQ(m.interfaces[0].roles, std::vector<std::string>{"default route"});
}

TEST(TopologySection, HtmlHasAStableId) {
  EXPECT_NE(topology_page(topo_report_of("ci-vm-cpu-only")).find("<section id=\"topology\">"), std::string::npos);
  const std::string empty = topology_page(Report{});
  EXPECT_NE(empty.find("<section id=\"topology\">"), std::string::npos) << "present, saying why, when empty";
  EXPECT_NE(empty.find("did not run"), std::string::npos);
  EXPECT_NE(render_html(topo_report_of("ci-vm-cpu-only")).find("<section id=\"topology\">"), std::string::npos);
  EXPECT_NE(render_markdown(topo_report_of("ci-vm-cpu-only")).find("\n## Topology\n"), std::string::npos);
}

// A node of a fake cluster as the topo suite writes it: no GPU, eth0 (data, a veth shaped by tbf)
// and ctl0 (control), both virtual.
json fc_topo_node(const std::string& host, double shaped_bps) {
  auto iface = [](const std::string& name, double shaped) {
    return json{{"name", name}, {"kind", "virtual_other"}, {"bus_id", nullptr}, {"speed_Mbps", 10000},
                {"mtu", 1500}, {"shaped_rate_bps", shaped > 0 ? json(shaped) : json(nullptr)},
                {"numa_node", nullptr}, {"rdma", nullptr}, {"operstate", "up"}};
  };
  return {{"hostname", host},
          {"format", "live"},
          {"cpu", {{"packages", 1}, {"cores", 2}, {"pus", 2}, {"numa_nodes", {{{"os_index", 0}, {"package", 0}, {"cpus", "0-1"}}}}}},
          {"gpus", json::array()},
          {"nics", json::array()},
          {"interfaces", {iface("eth0", shaped_bps), iface("ctl0", 0)}},
          {"rdma", json::array()},
          {"default_route_interfaces", json::array()}};
}

Report fc_topo_cluster(const std::vector<double>& shaped_bps) {
  Report rep;
  for (size_t i = 0; i < shaped_bps.size(); ++i) {
    const std::string host = "fc-node" + std::to_string(i);
    rep.provenance.hosts.push_back(host);
    rep.topology[host] = fc_topo_node(host, shaped_bps[i]);
    Record flow;  // a tcp flow from this host over eth0
    flow.suite = "tcp";
    flow.name = "bandwidth";
    flow.variant = "matrix";
    flow.host = host;
    flow.status = Status::passed;
    flow.extra = {{"src_host", host}, {"link", {{"iface", "eth0"}}}};
    rep.results.push_back(flow);
  }
  return rep;
}

TEST(TopologySection, IdenticalNodesAreOneKind) {
  const auto o = topology_overview(fc_topo_cluster({1e9, 1e9, 1e9}));
  ASSERT_EQ(o.kinds.size(), 1u);
  EXPECT_EQ(o.kinds[0].hosts, (std::vector<std::string>{"fc-node0", "fc-node1", "fc-node2"}));
  const std::string md = topology_md(topology_text(o));
  EXPECT_NE(md.find("### fc-node0, fc-node1, fc-node2 (same topology)"), std::string::npos) << md;
  ASSERT_EQ(o.kinds[0].model.interfaces.size(), 2u);
  const auto& eth0 = o.kinds[0].model.interfaces[0];
  ASSERT_EQ(eth0.roles.size(), 1u);
  EXPECT_NE(eth0.roles[0].find("benchmark traffic"), std::string::npos) << eth0.roles[0];
  EXPECT_TRUE(o.kinds[0].model.interfaces[1].roles.empty()) << "ctl0 carried no benchmark figure";
  EXPECT_NE(md.find("1 (tbf shaped; link 10)"), std::string::npos) << md;
}

TEST(TopologySection, AHostWithAnotherNicSpeedIsItsOwnKind) {
  const auto o = topology_overview(fc_topo_cluster({1e9, 1e9, 0.25e9, 1e9}));
  ASSERT_EQ(o.kinds.size(), 2u);
  EXPECT_EQ(o.kinds[0].hosts, (std::vector<std::string>{"fc-node0", "fc-node1", "fc-node3"}));
  EXPECT_EQ(o.kinds[1].hosts, (std::vector<std::string>{"fc-node2"}));
  const std::string md = topology_md(topology_text(o));
  EXPECT_NE(md.find("### fc-node2\n"), std::string::npos) << md;
  EXPECT_NE(md.find("0.25 (tbf shaped; link 10)"), std::string::npos) << md;
}

// The summary's NVLink rows ("inside a node"): no suite copies between GPUs, so each GPU node gets a
// row that says NVLink was not measured, with what its topology shows.
std::vector<TableRow> nvlink_rows_of(const Report& rep) {
  std::vector<TableRow> out;
  for (const auto& row : summary_table(rep).rows)
    if (row.cells.at(1).text.find("NVLink") != std::string::npos) out.push_back(row);
  return out;
}

TEST(NvlinkSummary, RealGpuExportsWithoutNvlinkSaySoAndThatNothingWasMeasured) {
  for (const auto& [fixture, subject] : {std::pair{"juwels-gpu", "juwels-node (4 GPUs)"}, {"penguin-pascal", "pascal-node (2 GPUs)"}}) {
    const auto rows = nvlink_rows_of(topo_report_of(fixture));
    ASSERT_EQ(rows.size(), 1u) << fixture;
    const auto& c = rows[0].cells;
    EXPECT_EQ(c[0].text, "inside a node");
    EXPECT_NE(c[1].text.find("not measured: no suite copies between GPUs"), std::string::npos) << c[1].text;
    EXPECT_NE(c[1].text.find("the topology shows no NVLink (GPU pairs over PCIe: "), std::string::npos) << c[1].text;
    EXPECT_EQ(c[2].text, subject);
    EXPECT_EQ(c[3].text, "not measured");
    EXPECT_EQ(c[4].text, "") << "no NVLink, no ceiling";
    EXPECT_EQ(c[6].text, "") << "no efficiency without a figure";
    EXPECT_EQ(rows[0].status, Status::skipped);
  }
  EXPECT_TRUE(nvlink_rows_of(topo_report_of("ci-vm-cpu-only")).empty()) << "a CPU-only node has no NVLink row";
}

// The discovery's pair classes in nvidia-smi's notation: a pair the topology calls NV2 (the juwels
// export with its first GPU pair marked so, and the generation stated on its GPUs) gets the line
// rate of two NVLink2 links per direction, report/CEILINGS.md §4: 2 x 25 GB/s.
TEST(NvlinkSummary, NvlinkPairsGetTheirLinksAndCeiling) {
  Report rep = topo_report_of("juwels-gpu");
  auto& section = rep.topology["juwels-node"];
  for (auto& g : section["gpus"]) g["nvlink"] = {{"gen", 2}};
  for (auto& p : section["pairs"])
    if (p["a"] == "0000:5d:00.0" && p["b"] == "0000:5e:00.0") p["class"] = "NV2";
  const auto rows = nvlink_rows_of(rep);
  ASSERT_EQ(rows.size(), 1u);
  const auto& c = rows[0].cells;
  EXPECT_EQ(c[1].text, "NVLink GPU<->GPU (NV2), not measured: no suite copies between GPUs (pcie: host<->device only)");
  EXPECT_EQ(c[2].text, "juwels-node (1 of 6 GPU pairs)");
  EXPECT_EQ(c[4].text, "50");
  EXPECT_NE(c[4].derivation.find("2 links x 25 GB/s"), std::string::npos) << c[4].derivation;
  EXPECT_EQ(c[5].text, "GB/s");
}

// The report fixture's nodes (nvidia-smi-style matrix, NV12 between two A100s, the generation from
// the GPU's name): 12 x 25 = 300 GB/s per direction.
TEST(NvlinkSummary, MatrixCellsAndGpuNamesGiveLinksAndGeneration) {
  Report rep;
  rep.topology = {{"nodes", json::array({{{"host", "node-a"},
                                          {"gpus", json::array({{{"index", 0}, {"name", "NVIDIA A100-SXM4-40GB"}},
                                                                {{"index", 1}, {"name", "NVIDIA A100-SXM4-40GB"}}})},
                                          {"matrix", {{"labels", {"GPU0", "GPU1", "mlx5_0"}},
                                                      {"cells", {{"X", "NV12", "SYS"}, {"NV12", "X", "SYS"}, {"SYS", "SYS", "X"}}}}}}})}};
  const auto rows = nvlink_rows_of(rep);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].cells[2].text, "node-a (1 of 1 GPU pairs)");
  EXPECT_EQ(rows[0].cells[4].text, "300");
}

}  // namespace
