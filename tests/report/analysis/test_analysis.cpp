// Analysis: the ceiling each record gets from its link data and the topology, the efficiency, the
// explanations, and the verdict.
#include <gtest/gtest.h>

#include "report/analysis/analysis.hpp"
#include "report/analysis/topology_view.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

Record make(const std::string& suite, const std::string& name, json extra, int64_t bytes = 0) {
  Record r;
  r.suite = suite;
  r.name = name;
  r.host = "node-a";
  r.bytes = bytes;
  r.ranks = 2;
  r.extra = std::move(extra);
  return r;
}

const json kTbf = {{"kind", "ethernet"}, {"iface", "veth0"}, {"speed_Mbps", 10000}, {"mtu", 1500},
                   {"shaped_rate_bps", 1e9}};

json topology() {
  return json::parse(R"({"nodes": [{"host": "node-a",
      "gpus": [{"index": 2, "pcie": {"gen": 4, "width": 8, "max_gen": 4, "max_width": 16}},
               {"index": 0, "pcie": {"gen": 4, "width": 16, "max_gen": 4, "max_width": 16},
                "nvlink": {"gen": 3, "links": 12}}],
      "nics": [{"name": "mlx5_0", "kind": "infiniband", "link_layer": "InfiniBand", "rate_Gbps": 200},
               {"name": "eth0", "kind": "ethernet", "speed_Mbps": 1000, "mtu": 1500}],
      "paths": [{"gpu": 0, "nic": "mlx5_0", "class": "SYS"}]}]})");
}

// The figure a suite would set on a record of these tests: a TCP goodput on its link, an RDMA
// bandwidth on its port, a collective's busbw, a copy's rate on its PCIe link.
std::optional<Figure> figure_for(const Record& r) {
  const auto number = [&r](const char* k) { return r.extra.contains(k) ? std::optional<double>(r.extra[k].get<double>()) : std::nullopt; };
  std::optional<Figure> f;
  if (const auto g = number("goodput_Gbps")) {
    f = rate_figure("tcp.goodput", *g, "Gb/s", host_subject(r.host), PathModel::tcp_link);
    if (r.extra.contains("src_host"))
      f->subject = pair_subject(r.extra["src_host"], -1, r.extra.value("dst_host", ""), -1);
    if (r.extra.contains("streams")) f->parameters["streams"] = std::to_string(r.extra["streams"].get<int>());
    f->parameters["test"] = r.name;
  } else if (const auto bw = number("bw_Gbps")) {
    f = rate_figure("rdma.write.bw", *bw, "Gb/s", host_subject(r.host), PathModel::rdma_port);
  } else if (r.busbw_GBps > 0) {
    const std::string coll = r.name == "scaling" ? r.variant : r.name;
    f = rate_figure(r.suite + "." + coll + ".busbw", r.busbw_GBps, "GB/s", cluster_subject(0), PathModel::collective);
    f->parameters["memory"] = r.suite == "mpi" ? "host" : "device";
  } else if (r.algbw_GBps > 0) {
    f = rate_figure(r.suite + ".copy", r.algbw_GBps, "GB/s", host_subject(r.host), PathModel::pcie_link);
    const json& where = r.extra.contains("pcie") ? r.extra["pcie"] : r.extra;
    if (const int gpu = where.value("gpu_index", r.extra.value("gpu_index", -1)); gpu >= 0) f->subject = gpu_subject(r.host, gpu);
  } else if (r.time_us.samples > 0) {
    f = time_figure(r.suite + "." + r.name, r.time_us.p50, host_subject(r.host));
  }
  if (f && r.bytes > 0) f->parameters["bytes"] = std::to_string(r.bytes);
  if (f) f->parameters["variant"] = r.variant;
  return f;
}

// Analyses a report of the given records (with their figures) and returns them.
std::vector<Record> run(std::vector<Record> recs, json topo = json::object(), AnalysisOptions opt = {}) {
  Report rep;
  for (auto& r : recs)
    if (!r.figure) r.figure = figure_for(r);
  rep.results = std::move(recs);
  rep.topology = std::move(topo);
  analyze(rep, opt);
  return rep.results;
}

// Gives each record the figure its suite would set, then analyses the report.
void analyze_figures(Report& rep, AnalysisOptions opt = {}) {
  for (auto& r : rep.results)
    if (!r.figure) r.figure = figure_for(r);
  analyze(rep, opt);
}

// The analysed ceiling as JSON, with the efficiency beside it.
json ceiling(const Record& r) {
  if (!r.figure || !r.figure->ceiling)
    return json{{"known", false},
                {"reason", r.status == Status::skipped ? "not measured (skipped)" : "the record carries no figure"}};
  json c = *r.figure->ceiling;
  if (r.figure->efficiency) c["efficiency"] = *r.figure->efficiency;
  return c;
}

}  // namespace

TEST(Analysis, TcpOverTbfLinkGetsTheShapedCeiling) {
  auto r = make("tcp", "pair", {{"link", kTbf}, {"goodput_Gbps", 0.9531}});
  const auto out = run({r});
  const auto& c = ceiling(out[0]);
  ASSERT_TRUE(c.at("known").get<bool>());
  EXPECT_NEAR(c.at("value").get<double>(), 1448.0 / 1514.0, 1e-12);
  EXPECT_EQ(c.at("unit"), "Gb/s");
  EXPECT_NEAR(c.at("efficiency").get<double>(), 0.9531 / (1448.0 / 1514.0), 1e-12);
  EXPECT_FALSE(c.contains("explanation"));
  EXPECT_NE(c.at("derivation").get<std::string>().find("tbf-shaped link at 1 Gb/s"), std::string::npos);
}

TEST(Analysis, PlainEthernetAndVlanIpv6) {
  json link = {{"kind", "ethernet"}, {"speed_Mbps", 10000}, {"mtu", 9000}, {"ipv6", true}, {"vlan", true},
               {"tcp_timestamps", false}};
  const auto out = run({make("tcp", "pair", {{"link", link}, {"goodput_Gbps", 9.8}})});
  EXPECT_NEAR(ceiling(out[0]).at("value").get<double>(), 10.0 * 8940 / 9042, 1e-12);
}

TEST(Analysis, LoopbackAndSharedMemoryAreNeverGuessed) {
  const auto out = run({make("tcp", "loopback", {{"link", {{"loopback", true}, {"iface", "lo"}}}, {"goodput_Gbps", 40.0}}),
                        make("tcp", "x", {{"link", {{"kind", "shm"}}}, {"goodput_Gbps", 40.0}}),
                        make("tcp", "y", {{"link", {{"kind", "ethernet"}, {"speed_Mbps", 1000}}}, {"goodput_Gbps", 1.0}})});
  EXPECT_FALSE(ceiling(out[0]).at("known").get<bool>());
  EXPECT_NE(ceiling(out[0]).at("reason").get<std::string>().find("loopback"), std::string::npos);
  EXPECT_NE(ceiling(out[1]).at("reason").get<std::string>().find("shared memory"), std::string::npos);
  EXPECT_NE(ceiling(out[2]).at("reason").get<std::string>().find("MTU"), std::string::npos);
  EXPECT_FALSE(ceiling(out[0]).contains("efficiency"));
}

TEST(Analysis, LatencyAndSkippedRecordsSayWhy) {
  auto lat = make("tcp", "latency", {{"link", kTbf}});
  lat.time_us.samples = 100;
  auto skip = make("nccl", "allreduce", json::object());
  skip.status = Status::skipped;
  skip.reason = "no GPU";
  const auto out = run({lat, skip});
  EXPECT_EQ(ceiling(out[0]).at("reason"), "a latency figure has no bandwidth ceiling");
  EXPECT_EQ(ceiling(out[1]).at("reason"), "not measured (skipped)");
}

TEST(Analysis, SocketInsteadOfRdmaIsExplained) {
  auto r = make("nccl", "allreduce",
                {{"nccl", {{"transport", "NET/Socket"}, {"iface", "eth0"}, {"algo", "Ring"}}},
                 {"nodes", 3},
                 {"intra", {{"kind", "nvlink"}, {"gen", 3}}}},
                64 << 20);
  r.busbw_GBps = 0.05;
  const auto out = run({r}, topology());
  const auto& c = ceiling(out[0]);
  ASSERT_TRUE(c.at("known").get<bool>());
  EXPECT_NEAR(c.at("value").get<double>(), 1.0 * 1448 / 1538 / 8, 1e-12);  // eth0 from the topology
  const auto why = c.at("explanation").get<std::string>();
  EXPECT_NE(why.find("traffic went over NET/Socket on eth0, a 1GbE interface, not mlx5_0"), std::string::npos) << why;
}

TEST(Analysis, DowntrainedGpuAndNumaAreExplained) {
  auto r = make("pcie", "h2d", {{"pcie", {{"gpu_index", 2}, {"host_numa", 1}, {"gpu_numa", 0}}}}, 64 << 20);
  r.algbw_GBps = 13.0;
  const auto out = run({r}, topology());
  const auto& c = ceiling(out[0]);
  EXPECT_NEAR(c.at("value").get<double>(), 16 * 16.0 * 128 / 130 / 8, 1e-12);  // capable: Gen4 x16
  const auto why = c.at("explanation").get<std::string>();
  EXPECT_NE(why.find("GPU 2 trained at Gen4 x8 (capable of Gen4 x16): ceiling 15.75 GB/s"), std::string::npos) << why;
  EXPECT_NE(why.find("host buffer on NUMA node 1, GPU on NUMA node 0"), std::string::npos) << why;
}

TEST(Analysis, GpuNicPathFromTopology) {
  auto r = make("rdma", "write_bw",
                {{"bw_Gbps", 120.0}, {"gpu_index", 0},
                 {"rdma", {{"link_layer", "InfiniBand"}, {"device", "mlx5_0"}, {"ib_mtu", 4096}, {"rate_Gbps", 200}}}});
  const auto out = run({r}, topology());
  const auto why = ceiling(out[0]).at("explanation").get<std::string>();
  EXPECT_NE(why.find("GPU and NIC on different sockets (SYS)"), std::string::npos) << why;
}

TEST(Analysis, DgxA100RingModelGives192) {
  auto r = make("nccl", "allreduce",
                {{"nccl", {{"transport", "NET/IB"}, {"nic", "mlx5_0"}, {"algo", "Ring"}}},
                 {"nodes", 4}, {"nics_per_node", 8},
                 {"intra", {{"kind", "nvlink"}, {"gen", 3}}},
                 {"rdma", {{"link_layer", "InfiniBand"}, {"rate_Gbps", 200}, {"ib_mtu", 4096}}}},
                8LL << 30);
  r.busbw_GBps = 192;
  const auto out = run({r});
  EXPECT_DOUBLE_EQ(ceiling(out[0]).at("value").get<double>(), 192);
  EXPECT_DOUBLE_EQ(ceiling(out[0]).at("efficiency").get<double>(), 1.0);
}

TEST(Analysis, SingleNodeNvlinkFromTopologyAndUnknownCases) {
  auto one = make("nccl", "allreduce", {{"nodes", 1}}, 1 << 30);
  one.busbw_GBps = 230;
  auto nvls = make("nccl", "allreduce", {{"nodes", 1}, {"nccl", {{"algo", "NVLS"}}}}, 1 << 30);
  nvls.busbw_GBps = 480;
  auto a2a = make("nccl", "alltoall", {{"nodes", 2}}, 1 << 30);
  a2a.busbw_GBps = 20;
  auto no_nodes = make("nccl", "allreduce", json::object(), 1 << 30);
  no_nodes.busbw_GBps = 20;
  no_nodes.ranks = 7;
  auto mpi_one = make("mpi", "allreduce", {{"nodes", 1}}, 1 << 20);
  mpi_one.busbw_GBps = 3;
  const auto out = run({one, nvls, a2a, no_nodes, mpi_one}, topology());
  EXPECT_DOUBLE_EQ(ceiling(out[0]).at("value").get<double>(), 240);  // NVLink3 from the topology, GPU 0
  EXPECT_NE(ceiling(out[1]).at("reason").get<std::string>().find("NVLS"), std::string::npos);
  EXPECT_NE(ceiling(out[2]).at("reason").get<std::string>().find("alltoall"), std::string::npos);
  EXPECT_NE(ceiling(out[3]).at("reason").get<std::string>().find("number of nodes"), std::string::npos);
  EXPECT_NE(ceiling(out[4]).at("reason").get<std::string>().find("shared memory"), std::string::npos);
}

TEST(Analysis, NodeCountFromProvenance) {
  Provenance p;
  p.hosts = {"a", "a", "b", "b"};
  p.ranks_per_node = {2, 2};
  Record r;
  r.ranks = 4;
  EXPECT_EQ(record_nodes(r, p), 2);
  r.ranks = 3;  // a subset: unknown without extra.nodes
  EXPECT_EQ(record_nodes(r, p), 0);
  r.extra = {{"nodes", 5}};
  EXPECT_EQ(record_nodes(r, p), 5);
}

TEST(Analysis, RdmaRoceAndAmbiguousIbRate) {
  auto roce = make("rdma", "write_bw",
                   {{"bw_Gbps", 90.0}, {"rdma", {{"link_layer", "Ethernet"}, {"rate_Gbps", 100}, {"ib_mtu", 1024}}}});
  auto qdr = make("rdma", "write_bw",
                  {{"bw_Gbps", 30.0}, {"rdma", {{"link_layer", "InfiniBand"}, {"rate_Gbps", 40}, {"ib_mtu", 2048}}}});
  const auto out = run({roce, qdr});
  EXPECT_NEAR(ceiling(out[0]).at("value").get<double>(), 100.0 * 1024 / 1106, 1e-12);
  EXPECT_NE(ceiling(out[1]).at("reason").get<std::string>().find("signalling"), std::string::npos);
}

TEST(Analysis, SweepCountsOnceByItsBestSize) {
  std::vector<Record> sweep;
  for (auto [bytes, g] : {std::pair<int64_t, double>{1024, 0.10}, {1 << 20, 0.60}, {64 << 20, 0.93}}) {
    auto r = make("tcp", "bw", {{"link", kTbf}, {"goodput_Gbps", g}}, bytes);
    sweep.push_back(r);
  }
  Report rep;
  rep.results = sweep;
  analyze_figures(rep);
  EXPECT_EQ(rep.extra.at("analysis").at("verdict"), "PASS");
  EXPECT_EQ(rep.extra.at("analysis").at("counts").at("below_threshold"), 0);
  const auto why = ceiling(rep.results[0]).at("explanation").get<std::string>();
  EXPECT_NE(why.find("at 1 KiB the transfer is dominated by latency; this sweep reaches 97% of the ceiling at 64 MiB"),
            std::string::npos)
      << why;
  EXPECT_FALSE(ceiling(rep.results[2]).contains("explanation"));
}

TEST(Analysis, VerdictsAndThresholdOption) {
  auto good = make("tcp", "pair", {{"link", kTbf}, {"goodput_Gbps", 0.90}});
  auto failed = good;
  failed.status = Status::failed;
  failed.reason = "rank 1 died";
  Report rep;
  rep.results = {good};
  analyze_figures(rep);
  EXPECT_EQ(rep.extra["analysis"]["verdict"], "PASS");
  analyze_figures(rep, AnalysisOptions{0.99, 1.02});
  EXPECT_EQ(rep.extra["analysis"]["verdict"], "WARN");
  EXPECT_DOUBLE_EQ(rep.extra["analysis"]["threshold"].get<double>(), 0.99);
  EXPECT_TRUE(ceiling(rep.results[0]).contains("explanation"));
  rep.results.push_back(failed);
  analyze_figures(rep);
  EXPECT_EQ(rep.extra["analysis"]["verdict"], "FAIL");
  EXPECT_EQ(rep.extra["analysis"]["counts"]["failed"], 1);
  EXPECT_FALSE(ceiling(rep.results[1]).contains("efficiency"));  // a failed figure is not judged
}

TEST(Analysis, SlowPairAmongGoodPairsBlamesTheLink) {
  std::vector<Record> recs;
  for (auto [src, dst, g] : {std::tuple{"a", "b", 0.95}, {"b", "a", 0.95}, {"a", "c", 0.95}, {"c", "a", 0.40}})
    recs.push_back(make("tcp", "pair", {{"link", kTbf}, {"src_host", src}, {"dst_host", dst}, {"goodput_Gbps", g}}));
  const auto out = run(recs);
  const auto why = ceiling(out[3]).at("explanation").get<std::string>();
  EXPECT_NE(why.find("other host pairs of this test reach up to 99%: this link, or one of its two hosts, is at fault"),
            std::string::npos)
      << why;
}

TEST(Analysis, AboveTheCeilingIsExplained) {
  auto r = make("nccl", "allreduce",
                {{"nccl", {{"transport", "NET/IB"}, {"algo", "Tree"}}}, {"nodes", 2},
                 {"rdma", {{"link_layer", "InfiniBand"}, {"rate_Gbps", 200}, {"ib_mtu", 4096}}}},
                1 << 30);
  r.busbw_GBps = 30;
  Report rep;
  rep.results = {r};
  analyze_figures(rep);
  const auto why = ceiling(rep.results[0]).at("explanation").get<std::string>();
  EXPECT_NE(why.find("NCCL may use Tree or NVLSTree"), std::string::npos) << why;
  EXPECT_EQ(rep.extra["analysis"]["counts"]["above_ceiling"], 1);
  EXPECT_EQ(rep.extra["analysis"]["verdict"], "PASS");
}

TEST(TopologyView, AcceptsThreeShapesAndIgnoresJunk) {
  const json node = {{"nics", json::array({{{"name", "mlx5_0"}, {"link_layer", "Ethernet"}}})}};
  for (const json& t : {json{{"nodes", json::array({json{{"host", "h"}, {"nics", node["nics"]}}})}},
                        json{{"nodes", {{"h", node}}}}, json{{"h", node}}}) {
    TopologyView v(t);
    ASSERT_NE(v.nic("h", "mlx5_0"), nullptr) << t.dump();
    EXPECT_EQ(v.rdma_nics("h"), std::vector<std::string>{"mlx5_0"});
  }
  for (const json& junk : {json(42), json::array(), json{{"nodes", 7}}, json{{"h", "not a node"}}}) {
    TopologyView v(junk);
    EXPECT_EQ(v.node("h"), nullptr);
    EXPECT_TRUE(v.matrices().empty());
  }
  // A ragged matrix is dropped, not drawn.
  const json ragged_topology{{"h", {{"matrix", {{"labels", {"a", "b"}}, {"cells", {{"X"}, {"X", "Y"}}}}}}}};
  TopologyView ragged(ragged_topology);
  EXPECT_TRUE(ragged.matrices().empty());
}
