// Verdicts on a fixture run of two nodes where node-b is degraded (one GPU at x8, one 25 Gb/s NIC, a
// GPU whose nearest NIC is SYS away, half the PCIe copy rate). Each promise is checked for PASS, FAIL
// and SKIP, with the measured value and the reason.
#include <gtest/gtest.h>

#include <fstream>

#include "gpunet/build_config.h"
#include "tests/support/judged_markdown.hpp"
#include "tests/support/spec_names.hpp"
#include "report/model/legacy_figure.hpp"
#include "report/judge/verdicts.hpp"
#include "report/judge/verdicts_facts.hpp"
#include "report/judge/verdicts_topology.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

Report fixture() {
  std::ifstream in(std::string(GPUNET_SOURCE_DIR) + "/tests/accept/data/two_nodes_report.json");
  Report r = json::parse(in).get<Report>();
  upgrade_legacy_report(r);  // a version-1 report: figures from the adapter, its stored ceilings kept
  return r;
}

// Evaluates a spec with exactly one promise and returns its verdict.
Verdict one(const Report& r, const std::string& body) {
  const auto spec = parse_spec(json::parse(R"({"spec_version": 1, )" + body + "}"), "t.json", gpunet::test_support::suite_spec_names());
  const auto v = evaluate(r, spec);
  EXPECT_EQ(v.size(), 1u);
  return v.empty() ? Verdict{} : v.front();
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(Verdicts, NicCountAndSpeed) {
  const auto r = fixture();
  auto v = one(r, R"("nic": {"count": 2, "speed_Gbps": 100, "match": "^mlx5_"})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.measured, "1 (fewest, on node-b)");
  EXPECT_TRUE(has(v.reason, "node-b has 1 (mlx5_0 100 Gb/s, mlx5_1 25.0 Gb/s)")) << v.reason;
  EXPECT_EQ(v.limit, ">= 2 NICs per node at >= 100 Gb/s (names matching ^mlx5_)");

  EXPECT_EQ(one(r, R"("nic": {"count": 2, "match": "^mlx5_"})").status, VerdictStatus::pass);
  v = one(r, R"("nic": {"speed_Gbps": 1, "match": "^eno"})");
  EXPECT_EQ(v.status, VerdictStatus::pass);
  EXPECT_EQ(v.measured, "1.00 Gb/s (node-a eno1)");
  v = one(r, R"("nic": {"speed_Gbps": 100, "match": "^mlx5_1$"})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.measured, "25.0 Gb/s (node-b mlx5_1)");
  EXPECT_EQ(one(r, R"("nic": {"speed_Gbps": 100, "match": "^ib"})").status, VerdictStatus::skip);
}

// A NIC whose interface is down carries nothing: it does not count toward nic.count, and a promise on
// every NIC's speed fails on it; both name the host and the interface.
TEST(Verdicts, ANicDownIsAFailNamingHostAndInterface) {
  auto r = fixture();
  r.topology = json::parse(R"({
    "node-a": {"gpus": [], "nics": [{"bus_id": "0000:01:00.0", "line_rate_Gbps": 100, "os_devices": {"net": ["eth0"]}},
                                    {"bus_id": "0000:02:00.0", "line_rate_Gbps": 100, "os_devices": {"net": ["eth1"]}}],
               "interfaces": [{"name": "eth0", "bus_id": "0000:01:00.0", "operstate": "up"},
                              {"name": "eth1", "bus_id": "0000:02:00.0", "operstate": "up"}]},
    "node-b": {"gpus": [], "nics": [{"bus_id": "0000:01:00.0", "line_rate_Gbps": 100, "os_devices": {"net": ["eth0"]}},
                                    {"bus_id": "0000:02:00.0", "line_rate_Gbps": 100, "os_devices": {"net": ["eth1"]}}],
               "interfaces": [{"name": "eth0", "bus_id": "0000:01:00.0", "operstate": "up"},
                              {"name": "eth1", "bus_id": "0000:02:00.0", "operstate": "down"}]}})");
  auto v = one(r, R"("nic": {"count": 2})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.measured, "1 (fewest, on node-b)");
  EXPECT_TRUE(has(v.reason, "node-b has 1 (eth0 100 Gb/s, eth1 down)")) << v.reason;
  v = one(r, R"("nic": {"speed_Gbps": 100})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_TRUE(has(v.reason, "node-b eth1 is down")) << v.reason;
  EXPECT_FALSE(has(v.reason, "node-a")) << v.reason;
  EXPECT_EQ(one(r, R"("nic": {"count": 1})").status, VerdictStatus::pass);
  EXPECT_EQ(one(r, R"("nic": {"count": 2, "match": "eth0"})").status, VerdictStatus::fail);  // 1 match per node
  EXPECT_EQ(one(r, R"("nic": {"speed_Gbps": 100, "match": "eth0"})").status, VerdictStatus::pass);
}

TEST(Verdicts, PcieLinks) {
  const auto r = fixture();
  auto v = one(r, R"("pcie": {"gpu": {"gen": 4, "width": 16}})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.measured, "Gen4 x8 (node-b 0000:65:00.0)");
  EXPECT_TRUE(has(v.reason, "1 GPU below the promised link")) << v.reason;
  v = one(r, R"("pcie": {"gpu": {"gen": 4, "width": 8}})");
  EXPECT_EQ(v.status, VerdictStatus::pass);
  EXPECT_EQ(v.reason, "all 4 GPUs on 2 nodes meet it");
  EXPECT_EQ(one(r, R"("pcie": {"gpu": {"gen": 5}})").status, VerdictStatus::fail);

  // NICs: the nic.match filter applies; virtual NICs (no bus id, no link) are not PCIe devices.
  const auto spec = parse_spec(json::parse(R"({"spec_version": 1, "nic": {"count": 1, "match": "^mlx5_"},
                                                "pcie": {"nic": {"gen": 4, "width": 16}}})"), "t.json", gpunet::test_support::suite_spec_names());
  const auto both = evaluate(r, spec);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[1].promise, "pcie.nic");
  EXPECT_EQ(both[1].status, VerdictStatus::pass);
  EXPECT_EQ(both[1].reason, "all 4 NICs on 2 nodes meet it");
  v = one(r, R"("pcie": {"nic": {"width": 4}})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_TRUE(has(v.measured, "Gen2 x1")) << v.measured;
  EXPECT_TRUE(has(v.reason, "2 NICs below")) << v.reason;
}

TEST(Verdicts, Locality) {
  const auto r = fixture();
  const auto spec = parse_spec(json::parse(R"({"spec_version": 1, "nic": {"count": 1, "match": "^mlx5_"},
                                                "locality": {"worst_path": "PXB"}})"), "t.json", gpunet::test_support::suite_spec_names());
  const auto verdicts = evaluate(r, spec);
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts[1].status, VerdictStatus::fail);
  EXPECT_EQ(verdicts[1].measured, "SYS (node-b GPU 0000:65:00.0 -> mlx5_0)");
  // Without the NIC filter, eno1 (PHB) is the nearest NIC of GPU 0000:17 but not of node-b's 0000:65.
  auto v = one(r, R"("locality": {"worst_path": "SYS"})");
  EXPECT_EQ(v.status, VerdictStatus::pass);
  EXPECT_EQ(v.reason, "all 4 GPUs have a NIC close enough");
  v = one(r, R"("locality": {"worst_path": "PIX"})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_TRUE(has(v.reason, "2 GPUs too far from any NIC: node-a GPU 0000:65:00.0 -> mlx5_1 PXB, node-b GPU 0000:65:00.0 -> mlx5_0 SYS")) << v.reason;
}

TEST(Verdicts, TopologyPromisesSkipWithoutTopology) {
  auto r = fixture();
  r.topology = json::object();
  for (const char* body : {R"("nic": {"count": 1})", R"("pcie": {"gpu": {"gen": 3}})", R"("locality": {"worst_path": "SYS"})",
                           R"("homogeneity": {"topology": true})"}) {
    const auto v = one(r, body);
    EXPECT_EQ(v.status, VerdictStatus::skip) << body;
    EXPECT_EQ(v.reason, "the report has no per-node topology (run the topo suite)") << body;
  }
  // A CPU-only node: no GPU, so GPU promises skip with a reason.
  r.topology = json::parse(R"({"cpu-1": {"gpus": [], "nics": [{"bus_id": "0000:01:00.0", "line_rate_Gbps": 10,
                                                                  "os_devices": {"net": ["eth0"]}}]}})");
  auto v = one(r, R"("pcie": {"gpu": {"gen": 3}})");
  EXPECT_EQ(v.status, VerdictStatus::skip);
  EXPECT_EQ(v.reason, "no GPU in the topology of any node");
  v = one(r, R"("nic": {"count": 1, "speed_Gbps": 10})");
  EXPECT_EQ(v.status, VerdictStatus::pass);
}

TEST(Verdicts, Bandwidth) {
  const auto r = fixture();
  auto v = one(r, R"("bandwidth": [{"suite": "nccl", "name": "allreduce", "bytes": 67108864, "min": 150}])");
  EXPECT_EQ(v.status, VerdictStatus::pass);
  EXPECT_EQ(v.promise, "bandwidth[0] nccl/allreduce 64 MiB busbw_GBps");
  EXPECT_EQ(v.measured, "180 GB/s (all ranks)");
  EXPECT_EQ(v.limit, ">= 150 GB/s");
  EXPECT_EQ(one(r, R"("bandwidth": [{"suite": "nccl", "name": "allreduce", "min": 200}])").status, VerdictStatus::fail);
  // Efficiency at the largest size (default) passes, at 1 MiB it fails.
  v = one(r, R"("bandwidth": [{"suite": "nccl", "name": "allreduce", "min_efficiency_pct": 80}])");
  EXPECT_EQ(v.status, VerdictStatus::pass);
  EXPECT_EQ(v.measured, "90.0 % (all ranks)");
  v = one(r, R"("bandwidth": [{"suite": "nccl", "name": "allreduce", "bytes": 1048576, "min_efficiency_pct": 80}])");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.measured, "20.0 % (all ranks)");
  // An extra figure, worst over the two host pairs.
  v = one(r, R"("bandwidth": [{"suite": "tcp", "name": "bandwidth", "figure": "extra.goodput_Gbps", "min": 90}])");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.measured, "23.5 Gb/s (node-b)");
  EXPECT_EQ(v.reason, "1 of 2 hosts below 90.0 Gb/s; lowest node-b 23.5 Gb/s (ceiling 24.5 Gb/s)");
  EXPECT_EQ(one(r, R"("bandwidth": [{"suite": "tcp", "name": "bandwidth", "figure": "extra.goodput_Gbps", "min_efficiency_pct": 95}])").status,
            VerdictStatus::pass);
  // The same figures named by their metrics: the same verdicts.
  for (const auto& [metric, path] : std::vector<std::pair<std::string, std::string>>{
           {R"("suite": "tcp", "name": "bandwidth", "figure": "tcp.goodput", "min": 90)",
            R"("suite": "tcp", "name": "bandwidth", "figure": "extra.goodput_Gbps", "min": 90)"},
           {R"("suite": "nccl", "name": "allreduce", "figure": "nccl.allreduce.busbw", "min_efficiency_pct": 80)",
            R"("suite": "nccl", "name": "allreduce", "figure": "busbw_GBps", "min_efficiency_pct": 80)"}}) {
    const auto by_metric = one(r, R"("bandwidth": [{)" + metric + "}]");
    const auto by_path = one(r, R"("bandwidth": [{)" + path + "}]");
    EXPECT_EQ(by_metric.status, by_path.status) << metric;
    EXPECT_EQ(by_metric.measured, by_path.measured) << metric;
    EXPECT_EQ(by_metric.reason, by_path.reason) << metric;
    EXPECT_EQ(by_metric.promise, by_path.promise) << metric;
  }
}

TEST(Verdicts, BandwidthSkipsAndFailedMeasurements) {
  const auto r = fixture();
  auto v = one(r, R"("bandwidth": [{"suite": "nccl", "name": "allreduce", "bytes": 4096, "min": 1}])");
  EXPECT_EQ(v.status, VerdictStatus::skip);
  EXPECT_EQ(v.reason, "no nccl/allreduce record at 4 KiB (measured: 1 MiB, 64 MiB)");
  v = one(r, R"("bandwidth": [{"suite": "nccl", "name": "alltoall", "min": 1}])");
  EXPECT_EQ(v.status, VerdictStatus::skip);
  EXPECT_EQ(v.reason, "the run has no nccl/alltoall records");
  v = one(r, R"("bandwidth": [{"suite": "rdma", "name": "latency", "min": 1}])");
  EXPECT_EQ(v.status, VerdictStatus::skip);
  EXPECT_EQ(v.reason, "rdma/latency was skipped: no RDMA device (ibv_get_device_list found none)");
  v = one(r, R"("bandwidth": [{"suite": "pcie", "name": "h2d", "figure": "algbw_GBps", "min_efficiency_pct": 50}])");
  EXPECT_EQ(v.status, VerdictStatus::skip);
  EXPECT_EQ(v.reason, "not judged: no ceiling is known for these records");
  v = one(r, R"("bandwidth": [{"suite": "mpi", "name": "allreduce", "min": 1}])");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.reason, "the measurement failed on all ranks: wrong result: 12 elements differ");
}

TEST(Verdicts, Latency) {
  const auto r = fixture();
  auto v = one(r, R"("latency": [{"suite": "tcp", "name": "latency", "max_p99_us": 50}])");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.promise, "latency[0] tcp/latency 8 B time_us.p99");
  // The limit and the figure name their measure in the words of the latency tables (kLatencyMeasure).
  EXPECT_EQ(v.measured, "60.0 us, p99 of half the round trip (node-b)");
  EXPECT_EQ(v.limit, "<= 50.0 us, p99 of half the round trip");
  EXPECT_EQ(one(r, R"("latency": [{"suite": "tcp", "name": "latency", "max_p99_us": 100}])").status, VerdictStatus::pass);
  // A limit on the whole round trip judges twice the figure.
  v = one(r, R"("latency": [{"suite": "tcp", "name": "latency", "max_p99_rtt_us": 100}])");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.measured, "120 us, p99 of the round trip (node-b)");
  EXPECT_EQ(v.limit, "<= 100 us, p99 of the round trip");
  EXPECT_EQ(one(r, R"("latency": [{"suite": "tcp", "name": "latency", "max_p99_rtt_us": 130}])").status, VerdictStatus::pass);
  v = one(r, R"("latency": [{"suite": "rdma", "name": "latency", "max_p99_us": 5}])");
  EXPECT_EQ(v.status, VerdictStatus::skip);
  EXPECT_TRUE(has(v.reason, "no RDMA device")) << v.reason;
}

TEST(Verdicts, Stability) {
  const auto r = fixture();
  // The node-a->node-b timeline dips from 94 to 60 Gb/s: 1 - 60/94 = 36 %.
  auto v = one(r, R"("stability": [{"suite": "tcp", "name": "bandwidth", "max_dip_pct": 20}])");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.measured, "36.2 % (node-a)");
  EXPECT_EQ(one(r, R"("stability": [{"suite": "tcp", "name": "bandwidth", "max_dip_pct": 40}])").status, VerdictStatus::pass);
  // Without a timeline: 1 - p50/p99 of the iteration times (node-b: 1 - 5412/5500 = 1.6 %).
  v = one(r, R"("stability": [{"suite": "pcie", "name": "h2d", "max_dip_pct": 5}])");
  EXPECT_EQ(v.status, VerdictStatus::pass);
  EXPECT_EQ(v.measured, "1.60 % (node-b)");
}

TEST(Verdicts, Homogeneity) {
  const auto r = fixture();
  auto v = one(r, R"("homogeneity": {"topology": true})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.measured, "1 of 2 nodes alike");
  EXPECT_TRUE(has(v.reason, "node-b has 2 GPUs [Gen4 x16, Gen4 x8]")) << v.reason;
  v = one(r, R"("homogeneity": {"figures": [{"suite": "pcie", "name": "h2d", "figure": "algbw_GBps", "max_spread_pct": 10}]})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.measured, "33.9 % (node-a at 25.1 GB/s, median 18.8 GB/s)");
  EXPECT_EQ(v.reason, "2 of 2 hosts more than 10.0 % from the median 18.8 GB/s; farthest node-a 33.9 %");
  EXPECT_EQ(one(r, R"("homogeneity": {"figures": [{"suite": "nccl", "name": "allreduce", "max_spread_pct": 10}]})").status,
            VerdictStatus::skip);

  // Two identical nodes pass; one node skips.
  Report same = r;
  same.topology["nodes"][1] = same.topology["nodes"][0];
  same.topology["nodes"][1]["host"] = "node-c";
  EXPECT_EQ(one(same, R"("homogeneity": {"topology": true})").status, VerdictStatus::pass);
  same.topology["nodes"].erase(1);
  v = one(same, R"("homogeneity": {"topology": true})");
  EXPECT_EQ(v.status, VerdictStatus::skip);
  EXPECT_EQ(v.reason, "needs at least 2 nodes (the report has 1)");
}

TEST(Verdicts, ExitCodeAttachAndRender) {
  auto r = fixture();
  const auto spec = load_spec(std::string(GPUNET_SOURCE_DIR) + "/ci/spec-example.json", gpunet::test_support::suite_spec_names());
  const auto verdicts = evaluate(r, spec);
  ASSERT_EQ(verdicts.size(), 12u);
  EXPECT_EQ(verdict_exit_code(verdicts), 1);
  EXPECT_EQ(verdict_exit_code({}), 0);
  EXPECT_EQ(verdict_exit_code({{"a", VerdictStatus::pass, "", "", "", {}, {}}, {"b", VerdictStatus::skip, "", "", "", {}, {}}}),
            kIncompleteExitCode);
  EXPECT_EQ(verdict_exit_code({{"a", VerdictStatus::fail, "", "", "", {}, {}}, {"b", VerdictStatus::skip, "", "", "", {}, {}}}), 1);
  EXPECT_EQ(overall_verdict({{"a", VerdictStatus::pass, "", "", "", {}, {}}, {"b", VerdictStatus::skip, "", "", "", {}, {}}}),
            "INCOMPLETE");

  attach_verdicts(r, spec, verdicts);
  const json j = r;
  const auto back = j.at("extra").at("verdicts").get<std::vector<Verdict>>();
  ASSERT_EQ(back.size(), verdicts.size());
  EXPECT_EQ(back[0].promise, verdicts[0].promise);
  EXPECT_EQ(back[0].status, verdicts[0].status);
  EXPECT_EQ(j.at("extra").at("spec").at("name"), spec.name);

  Judgement judged;
  judged.verdicts = {{"a|b", VerdictStatus::fail, "1 GB/s", ">= 2 GB/s", "too slow", {}, {}}};
  const auto md = gpunet::test_support::judged_markdown(Report{}, judged);
  EXPECT_TRUE(has(md, "| a\\|b | **FAIL** | 1 GB/s | >= 2 GB/s | too slow |")) << md;
  EXPECT_TRUE(has(md, "0 PASS, 1 FAIL, 0 SKIP"));
  const auto text = render_verdicts_console(verdicts);
  EXPECT_TRUE(has(text, "FAIL")) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), static_cast<long>(verdicts.size() + 2));
}

TEST(VerdictFacts, TopologyFieldsRead) {
  const auto nodes = node_facts(fixture().topology);
  ASSERT_EQ(nodes.size(), 2u);
  const auto& a = nodes[0];
  EXPECT_EQ(a.host, "node-a");
  ASSERT_EQ(a.gpus.size(), 2u);
  // GPU 0000:17 is idle at Gen1: the usable link (Gen4) is judged, not the current speed.
  EXPECT_EQ(a.gpus[0].link->gen, 4);
  EXPECT_EQ(a.gpus[0].link->width, 16);
  // node-b's GPU 0000:65 trained with 8 lanes: the current width shows it.
  EXPECT_EQ(nodes[1].gpus[1].link->width, 8);
  ASSERT_EQ(a.nics.size(), 3u);
  EXPECT_EQ(a.nics[0].name, "mlx5_0");
  EXPECT_EQ(a.nics[0].names, (std::vector<std::string>{"mlx5_0", "ens1f0np0", "MT2910 Family [ConnectX-7]"}));
  EXPECT_DOUBLE_EQ(*a.nics[1].speed_Gbps, 100);  // no line rate: from the interface's speed_Mbps
  EXPECT_EQ(a.nics[2].name, "eno1");
  EXPECT_DOUBLE_EQ(*a.nics[2].speed_Gbps, 1);
  ASSERT_EQ(a.paths.size(), 6u);  // GPU-NIC pairs only, not the GPU-GPU pair
  EXPECT_TRUE(nic_counted(a.nics[0], "^ens1f0"));
  EXPECT_FALSE(nic_counted(a.nics[2], "ConnectX"));
}

TEST(VerdictFacts, AcceptedShapesAndSpellings) {
  const auto topo = json::parse(R"({"nodes": {"gpu-7": {
      "gpus": [{"bus_id": "00000000:3B:00.0", "pcie": {"gen": 3, "width": 8}}],
      "nics": [{"bus_id": "0000:3c:00.0", "os_devices": {"net": ["ens1f0"]}}],
      "interfaces": [{"name": "ens1f0", "bus_id": "0000:3c:00.0", "speed_Mbps": 25000}],
      "pairs": [{"a": "00000000:3B:00.0", "b": "0000:3C:00.0", "class": "PIX"}]}}})");
  const auto nodes = node_facts(topo);
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].host, "gpu-7");
  ASSERT_TRUE(nodes[0].gpus[0].link);
  EXPECT_EQ(nodes[0].gpus[0].link->gen, 3);
  EXPECT_EQ(nodes[0].nics[0].name, "ens1f0");
  EXPECT_DOUBLE_EQ(*nodes[0].nics[0].speed_Gbps, 25.0);
  // An 8-digit domain and upper case in the pair still name the same devices.
  const auto v = check_locality(nodes, PathClass::PIX, "");
  EXPECT_EQ(v.status, VerdictStatus::pass);
  EXPECT_EQ(v.measured, "PIX (gpu-7 GPU 00000000:3B:00.0 -> ens1f0)");
}

// A spec's extra.* figure reads what a results.jsonl's reader holds apart from extra (the link facts,
// the CPU cost, the timeline) as it reads extra: a run's report is its results.jsonl read back.
TEST(VerdictFacts, FigurePathsReadWhatIsHeldApartFromExtra) {
  Record r;
  r.kind = RecordKind::tcp_flow;
  r.extra = {{"link", {{"mtu", 9000}, {"speed_Mbps", 100000}}},
             {"cpu", gpunet::json::parse(R"({"sender": {"user_pct": 2.0, "sys_pct": 40.5, "cpu": 3, "pinned": false}, "receiver": null})")},
             {"timeline_Gbps", {9.5, 9.25}}, {"goodput_Gbps", 9.4}};
  r.figure = rate_figure("tcp.goodput", 9.4, "Gb/s", pair_subject("a", 0, "b", 1), PathModel::tcp_flow);
  r.figure->samples = {9.5, 9.25};
  const std::vector<std::string> paths = {"extra.link.mtu", "extra.link.speed_Mbps", "extra.cpu.sender.sys_pct",
                                          "extra.cpu.receiver.sys_pct", "extra.goodput_Gbps", "extra.link"};
  std::vector<std::optional<double>> in_extra;
  for (const auto& p : paths) in_extra.push_back(figure_value(r, p));
  EXPECT_EQ(in_extra[0], 9000.0);
  EXPECT_EQ(in_extra[2], 40.5);
  (void)hold_links_apart(r);
  hold_cpu_apart(r);
  hold_timeline_apart(r);
  ASSERT_TRUE(r.link && r.cpu && r.timeline_in_samples);
  for (size_t i = 0; i < paths.size(); ++i) EXPECT_EQ(figure_value(r, paths[i]), in_extra[i]) << paths[i];
}

TEST(VerdictFacts, FigurePaths) {
  Record r;
  r.busbw_GBps = 12.5;
  r.time_us.samples = 3;
  r.time_us.p99 = 7;
  r.extra = {{"ceiling", {{"efficiency", 0.5}}}, {"goodput_Gbps", "n/a"}};
  EXPECT_EQ(figure_value(r, "busbw_GBps"), 12.5);
  EXPECT_FALSE(figure_value(r, "algbw_GBps"));  // 0 = not measured
  EXPECT_EQ(figure_value(r, "time_us.p99"), 7.0);
  EXPECT_EQ(figure_value(r, "extra.ceiling.efficiency"), 0.5);
  EXPECT_FALSE(figure_value(r, "extra.goodput_Gbps"));  // not a number
  EXPECT_FALSE(figure_value(r, "extra.missing"));
  r.time_us.samples = 0;
  EXPECT_FALSE(figure_value(r, "time_us.p99"));
  EXPECT_EQ(figure_unit("extra.goodput_Gbps"), "Gb/s");
  EXPECT_EQ(figure_unit("time_us.p50"), "us");
}

TEST(Verdicts, ANodeCountPromiseCountsTheRunsHosts) {
  Report r = fixture();
  r.provenance.hosts = {"node-a", "node-a", "node-b", "node-b"};
  auto v = one(r, R"("nodes": 2)");
  EXPECT_EQ(v.promise, "nodes");
  EXPECT_EQ(v.status, VerdictStatus::pass);
  EXPECT_EQ(v.measured, "2 nodes");
  v = one(r, R"("nodes": 3)");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.reason, "the run spanned 2 of the 3 nodes promised: a node is missing from the job (down, drained or "
                      "left out of the hostfile)");
  EXPECT_THROW(parse_spec(json::parse(R"({"spec_version": 1, "nodes": 0})"), "t.json", gpunet::test_support::suite_spec_names()), SpecError);
  EXPECT_THROW(parse_spec(json::parse(R"({"spec_version": 1, "nodes": "16"})"), "t.json", gpunet::test_support::suite_spec_names()), SpecError);
}
