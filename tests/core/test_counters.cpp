// Traffic counters on a fake sysfs/procfs tree: byte counters per interface and RDMA port, the
// default-route interfaces, deltas and rates, the sampler thread, and the findings that flag
// traffic on an unexpected interface.
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "bench/core/counters/sampler.hpp"
#include "bench/core/counters/sysfs_counters.hpp"
#include "bench/core/counters/traffic.hpp"
#include "tests/support/fake_tree.hpp"

using namespace gpunet::bench::counters;
using gpunet::test::FakeTree;

namespace {
void set_if(const FakeTree& t, const std::string& name, uint64_t rx, uint64_t tx, const std::string& state = "up") {
  t.write("sys/class/net/" + name + "/statistics/rx_bytes", std::to_string(rx) + "\n");
  t.write("sys/class/net/" + name + "/statistics/tx_bytes", std::to_string(tx) + "\n");
  t.write("sys/class/net/" + name + "/operstate", state + "\n");
}
void set_ib(const FakeTree& t, const std::string& dev, int port, uint64_t rcv_words, uint64_t xmit_words) {
  const std::string c = "sys/class/infiniband/" + dev + "/ports/" + std::to_string(port) + "/counters/";
  t.write(c + "port_rcv_data", std::to_string(rcv_words) + "\n");
  t.write(c + "port_xmit_data", std::to_string(xmit_words) + "\n");
}
// Sysfs regenerates an attribute in place at every read; FakeTree::write renames a new file over the
// old one, which a descriptor opened before still reads as the old text. This writes in place.
void count_in_place(const FakeTree& t, const std::string& name, uint64_t rx, uint64_t tx) {
  for (const auto& [file, v] : {std::pair{"rx_bytes", rx}, std::pair{"tx_bytes", tx}}) {
    std::fstream f(t.path("sys/class/net/" + name + "/statistics/" + file), std::ios::in | std::ios::out);
    f << v << "\n";
  }
}
Snapshot snap(double t, std::map<std::string, ByteCounts> net, std::map<std::string, ByteCounts> rdma = {}) {
  Snapshot s;
  s.t_s = t;
  s.net = std::move(net);
  s.rdma = std::move(rdma);
  return s;
}
}  // namespace

TEST(Counters, ReadsInterfacesAndRdmaPortsInBytes) {
  FakeTree t;
  set_if(t, "lo", 100, 100, "unknown");
  set_if(t, "eth0", 1000, 2000);
  set_if(t, "ib0", 5, 6);
  t.write("sys/class/net/broken/operstate", "up\n");  // no statistics: left out
  set_ib(t, "mlx5_0", 1, 250, 500);
  const Snapshot s = read_snapshot(t.path("sys"), 7.5);
  EXPECT_DOUBLE_EQ(s.t_s, 7.5);
  ASSERT_EQ(s.net.size(), 3u);
  EXPECT_EQ(s.net.at("eth0").rx, 1000u);
  EXPECT_EQ(s.net.at("eth0").tx, 2000u);
  EXPECT_FALSE(s.net.count("broken"));
  ASSERT_EQ(s.rdma.size(), 1u);
  EXPECT_EQ(s.rdma.at("mlx5_0/1").rx, 1000u);  // port_rcv_data counts 4-byte words
  EXPECT_EQ(s.rdma.at("mlx5_0/1").tx, 2000u);
  EXPECT_EQ(up_interfaces(t.path("sys")), (std::vector<std::string>{"broken", "eth0", "ib0"}));
  EXPECT_TRUE(read_snapshot(t.path("nothing"), 0).net.empty());
}

TEST(Counters, DefaultRouteFromProcNetRouteAndIpv6Route) {
  FakeTree t;
  t.write("proc/net/route",
          "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
          "eno1\t00000000\t0100A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
          "eno1\t0000A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
          "ib0\t00000A0A\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n");
  t.write("proc/net/ipv6_route",
          "00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 00000400 00000001 00000000 00000003 eno2\n"
          "00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo\n"
          "fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001 ib0\n");
  EXPECT_EQ(default_route_interfaces(t.path("proc")), (std::vector<std::string>{"eno1", "eno2"}));
  EXPECT_TRUE(default_route_interfaces(t.path("none")).empty());
}

TEST(Counters, DeltasMeanAndPeakRates) {
  const std::vector<Snapshot> series{snap(10.0, {{"eth0", {1000, 0}}, {"ib0", {0, 0}}}),
                                     snap(11.0, {{"eth0", {1000 + 125'000'000, 0}}, {"ib0", {0, 0}}}),  // 1 Gb/s for 1 s
                                     snap(12.0, {{"eth0", {1000 + 125'000'000, 62'500'000}}, {"ib0", {0, 0}}})};
  const TrafficSummary s = summarize_traffic(series);
  EXPECT_DOUBLE_EQ(s.duration_s, 2.0);
  EXPECT_EQ(s.snapshots, 3);
  ASSERT_EQ(s.links.size(), 1u);  // ib0 moved nothing
  const auto& l = s.links[0];
  EXPECT_EQ(l.name, "eth0");
  EXPECT_EQ(l.rx_bytes, 125'000'000u);
  EXPECT_EQ(l.tx_bytes, 62'500'000u);
  EXPECT_NEAR(l.rx_Gbps, 0.5, 1e-12);
  EXPECT_NEAR(l.peak_rx_Gbps, 1.0, 1e-12);
  EXPECT_NEAR(l.peak_tx_Gbps, 0.5, 1e-12);
}

TEST(Counters, AMissingReadingDoesNotLoseBytes) {
  const std::vector<Snapshot> series{snap(0, {{"eth0", {0, 0}}}), snap(1, {}), snap(2, {{"eth0", {250'000'000, 0}}})};
  const auto s = summarize_traffic(series);
  ASSERT_EQ(s.links.size(), 1u);
  EXPECT_EQ(s.links[0].rx_bytes, 250'000'000u);
  EXPECT_NEAR(s.links[0].peak_rx_Gbps, 1.0, 1e-12);  // spread over the two seconds it covers
}

TEST(Counters, CounterResetCountsNothingForThatInterval) {
  const std::vector<Snapshot> series{snap(0, {{"eth0", {5000, 5000}}}), snap(1, {{"eth0", {100, 100}}}),
                                     snap(2, {{"eth0", {300, 100}}})};
  const auto s = summarize_traffic(series);
  ASSERT_EQ(s.links.size(), 1u);
  EXPECT_EQ(s.links[0].rx_bytes, 200u);
  EXPECT_EQ(s.links[0].tx_bytes, 0u);
}

TEST(Counters, RdmaPortsAndGpuActivity) {
  const std::vector<Snapshot> series{snap(0, {}, {{"mlx5_0/1", {0, 0}}}), snap(1, {}, {{"mlx5_0/1", {4'000'000, 8'000'000}}})};
  const std::vector<std::vector<GpuSample>> gpus{{{0, 50, 10, 1}}, {{0, 100, 20, 3}}};
  const auto s = summarize_traffic(series, gpus);
  ASSERT_EQ(s.links.size(), 1u);
  EXPECT_EQ(s.links[0].kind, "rdma");
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_DOUBLE_EQ(s.gpus[0].util_mean_pct, 75);
  EXPECT_DOUBLE_EQ(s.gpus[0].util_max_pct, 100);
  EXPECT_DOUBLE_EQ(s.gpus[0].pcie_rx_mean_GBps, 15);
  EXPECT_DOUBLE_EQ(s.gpus[0].pcie_tx_peak_GBps, 3);
  const auto j = to_json(s, {});
  EXPECT_EQ(j["rdma"]["mlx5_0/1"]["tx_bytes"], 8'000'000);
  EXPECT_EQ(j["carried_by"], gpunet::json::array({"mlx5_0/1"}));
}

namespace {
TrafficSummary two_links(uint64_t ctl, uint64_t eth) {
  return summarize_traffic({snap(0, {{"ctl0", {0, 0}}, {"eth0", {0, 0}}, {"lo", {0, 0}}}),
                            snap(1, {{"ctl0", {ctl, ctl}}, {"eth0", {eth, eth}}, {"lo", {1u << 30, 1u << 30}}})});
}
}  // namespace

TEST(Counters, FindingWhenTrafficLeavesTheExpectedInterfaces) {
  Expectation e;
  e.expected = {"eth*"};
  const auto f = traffic_findings(two_links(20'000'000, 1'000), e, "mpi", "fc-node0");
  ASSERT_EQ(f.size(), 1u);
  const std::string msg = f[0]["message"];
  EXPECT_NE(msg.find("ctl0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fc-node0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected interface(s) eth*"), std::string::npos) << msg;
  EXPECT_EQ(f[0]["severity"], "warning");
  EXPECT_EQ(f[0]["kind"], "traffic_unexpected_interface");
  EXPECT_EQ(f[0]["subjects"], gpunet::json::array({"ctl0"}));
  EXPECT_EQ(f[0]["node"], "fc-node0");
  // Traffic where it was expected, and loopback, are not findings.
  EXPECT_TRUE(traffic_findings(two_links(1'000, 20'000'000), e, "mpi", "h").empty());
  // Background traffic below the thresholds is not a finding either.
  EXPECT_TRUE(traffic_findings(two_links(100'000, 20'000'000), e, "mpi", "h").empty());
}

TEST(Counters, FindingForTheDefaultRouteInterfaceOnlyWhenOthersExist) {
  Expectation e;
  e.default_route = {"eth0"};
  e.up = {"eth0", "ib0"};
  const auto f = traffic_findings(two_links(0, 50'000'000), e, "nccl", "gpu-7");
  ASSERT_EQ(f.size(), 1u);
  const std::string msg = f[0]["message"];
  EXPECT_NE(msg.find("default-route interface"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ib0"), std::string::npos) << msg;
  EXPECT_EQ(f[0]["kind"], "traffic_default_route");
  EXPECT_EQ(f[0]["subjects"], gpunet::json::array({"eth0"}));
  e.up = {"eth0"};  // a one-interface node has nowhere else to send it
  EXPECT_TRUE(traffic_findings(two_links(0, 50'000'000), e, "nccl", "gpu-7").empty());
}

TEST(Counters, InterfacePatterns) {
  EXPECT_TRUE(interface_matches("eth0", {"eth0"}));
  EXPECT_FALSE(interface_matches("eth01", {"eth0"}));
  EXPECT_TRUE(interface_matches("enp65s0f1", {"ib0", "enp*"}));
  EXPECT_FALSE(interface_matches("ib0", {}));
  EXPECT_EQ(describe_traffic(two_links(0, 0), {}), "no network traffic");
  EXPECT_NE(describe_traffic(two_links(3'000'000, 0), {}).find("ctl0 6.0 MB"), std::string::npos);
}

TEST(Counters, CounterFilesOpenedOnceReadTheCurrentValue) {
  FakeTree t;
  set_if(t, "eth0", 0, 0);
  set_ib(t, "mlx5_0", 1, 1, 2);
  const CounterFiles files(t.path("sys"));
  set_if(t, "eth1", 5, 5);  // appeared after: not seen
  count_in_place(t, "eth0", 123456789012, 42);
  const Snapshot s = files.read(1.0);
  ASSERT_EQ(s.net.size(), 1u);
  EXPECT_EQ(s.net.at("eth0").rx, 123456789012u);
  EXPECT_EQ(s.net.at("eth0").tx, 42u);
  EXPECT_EQ(s.rdma.at("mlx5_0/1").tx, 8u);
  std::filesystem::resize_file(t.path("sys/class/net/eth0/statistics/tx_bytes"), 0);  // unreadable: left out
  EXPECT_TRUE(files.read(2.0).net.empty());
  EXPECT_TRUE(CounterFiles(t.path("nothing")).read(0).net.empty());
}

TEST(Counters, SamplerSeesBytesWrittenWhileItRuns) {
  FakeTree t;
  set_if(t, "eth0", 0, 0);
  Sampler s(t.path("sys"), 0.01, nullptr);
  s.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  count_in_place(t, "eth0", 4'000'000, 1'000'000);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const auto sum = s.stop();
  ASSERT_EQ(sum.links.size(), 1u);
  EXPECT_EQ(sum.links[0].rx_bytes, 4'000'000u);
  EXPECT_EQ(sum.links[0].tx_bytes, 1'000'000u);
  EXPECT_GE(sum.snapshots, 2);
  EXPECT_GT(sum.duration_s, 0.05);
  EXPECT_GT(sum.links[0].peak_rx_Gbps, 0);
}
