// The CPU cost of a TCP flow in the report: its text in the flows table, the rule that calls a flow
// limited by its host, and that diagnosis in the explanation and in report.md.
#include <gtest/gtest.h>

#include "report/analysis/analysis.hpp"
#include "report/render/renderers.hpp"
#include "report/analysis/tcp_flow_cpu.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

json cpu_end(double user, double sys, int cpu) { return {{"user_pct", user}, {"sys_pct", sys}, {"cpu", cpu}}; }

// A passed tcp bandwidth flow a -> b on `link`, with each end's CPU (null: not measured).
Record cpu_flow(const json& link, double goodput_Gbps, const json& sender, const json& receiver) {
  Record r;
  r.suite = "tcp";
  r.name = "bandwidth";
  r.variant = "neighbours";
  r.host = "b";
  r.ranks = 2;
  r.bytes = 1'000'000'000;
  r.extra = {{"link", link}, {"dst_link", link}, {"goodput_Gbps", goodput_Gbps}, {"src_host", "a"}, {"dst_host", "b"},
             {"cpu", {{"sender", sender}, {"receiver", receiver}}}};
  r.figure = rate_figure("tcp.goodput", goodput_Gbps, "Gb/s", pair_subject("a", 0, "b", 1), PathModel::tcp_flow);
  r.figure->parameters = {{"test", "neighbours"}, {"streams", "1"}};
  return r;
}

const json kLoopbackLink = {{"loopback", true}, {"iface", "lo"}};
const json kShapedLink = {{"kind", "ethernet"}, {"iface", "veth0"}, {"speed_Mbps", 10000}, {"mtu", 1500},
                          {"shaped_rate_bps", 1e9}};
const char* kReceiverBusy =
    "the receiver's core was 99 % busy: this figure is the host's limit; try --tcp-streams 4 or a core near the NIC";

}  // namespace

TEST(TcpFlowCpu, TextIsTotalThenUserAndSystemAsIperf3Prints) {
  const auto r = cpu_flow(kLoopbackLink, 20, cpu_end(4.1, 94.6, 0), cpu_end(3.2, 57.6, 1));
  EXPECT_EQ(flow_cpu_text(r), "99 % (4u/95s) / 61 % (3u/58s)");
  const auto one = cpu_flow(kLoopbackLink, 20, nullptr, cpu_end(3.2, 57.6, 1));
  EXPECT_EQ(flow_cpu_text(one), "- / 61 % (3u/58s)");
  EXPECT_EQ(flow_cpu_text(cpu_flow(kLoopbackLink, 20, nullptr, nullptr)), "");
  ASSERT_TRUE(flow_end_cpu(r, "receiver"));
  EXPECT_EQ(flow_end_cpu(r, "receiver")->cpu, 1);
}

TEST(TcpFlowCpu, HostLimitNamesTheBusierEndAtNinetyPercent) {
  EXPECT_FALSE(host_cpu_limit(cpu_flow(kLoopbackLink, 20, cpu_end(10, 79.9, 0), cpu_end(5, 84.9, 1))));
  EXPECT_EQ(host_cpu_limit(cpu_flow(kLoopbackLink, 20, cpu_end(4, 60, 0), cpu_end(3, 96, 1))).value_or(""), kReceiverBusy);
  const auto sender = host_cpu_limit(cpu_flow(kLoopbackLink, 20, cpu_end(5, 85, 0), cpu_end(3, 50, 1)));
  ASSERT_TRUE(sender);
  EXPECT_EQ(sender->rfind("the sender's core was 90 % busy", 0), 0u) << *sender;
  EXPECT_FALSE(host_cpu_limit(cpu_flow(kLoopbackLink, 20, nullptr, nullptr)));
}

TEST(TcpFlowCpu, SaturatedLoopbackFlowIsExplainedInReportMd) {
  Report rep;
  rep.results = {cpu_flow(kLoopbackLink, 20, cpu_end(4, 60, 0), cpu_end(3, 96, 1)),
                 cpu_flow(kLoopbackLink, 20, cpu_end(4, 40, 0), cpu_end(3, 50, 1))};
  analyze(rep, {});
  ASSERT_TRUE(rep.results[0].figure->ceiling);
  EXPECT_FALSE(rep.results[0].figure->ceiling->known);
  EXPECT_EQ(rep.results[0].figure->ceiling->explanation, kReceiverBusy);
  EXPECT_EQ(rep.results[1].figure->ceiling->explanation, "");
  const std::string md = render_markdown(rep);
  EXPECT_NE(md.find(kReceiverBusy), std::string::npos);
  EXPECT_NE(md.find("99 % (3u/96s)"), std::string::npos);  // the flows table's CPU column
  const json j = *rep.results[0].figure->ceiling;
  EXPECT_EQ(j.at("explanation"), kReceiverBusy);  // and report.json keeps it
}

TEST(TcpFlowCpu, SaturatedFlowBelowItsCeilingIsTheHostsLimitNotOneStream) {
  Report rep;
  rep.results = {cpu_flow(kShapedLink, 0.5, cpu_end(4, 60, 0), cpu_end(3, 96, 1))};
  analyze(rep, {});
  const auto& c = rep.results[0].figure->ceiling;
  ASSERT_TRUE(c && c->known);
  EXPECT_NE(c->explanation.find(kReceiverBusy), std::string::npos) << c->explanation;
  EXPECT_EQ(c->explanation.find("one TCP stream is often CPU-bound"), std::string::npos) << c->explanation;
}

TEST(TcpFlowCpu, BothEndsPinnedToOneCpuOfOneHostAddUp) {
  json tx = cpu_end(2, 46, 0), rx = cpu_end(2, 48, 0);
  tx["pinned"] = true;
  rx["pinned"] = true;
  auto r = cpu_flow(kLoopbackLink, 5, tx, rx);
  EXPECT_FALSE(host_cpu_limit(r)) << "two hosts: two cores";
  r.extra["src_host"] = "b";
  EXPECT_EQ(host_cpu_limit(r).value_or(""),
            "the sender and the receiver shared CPU 0, 98 % busy: this figure is the host's limit; give each end its own core");
  r.extra["cpu"]["receiver"]["pinned"] = false;  // the receiver could run elsewhere: no shared core is known
  EXPECT_FALSE(host_cpu_limit(r));
}

TEST(TcpFlowCpu, APinnedCoreBusyWithOtherTasksCountsToo) {
  json tx = cpu_end(2, 30, 0), rx = cpu_end(2, 31, 0);
  tx["pinned"] = true;
  rx["pinned"] = true;
  tx["core_busy_pct"] = 97.0;  // the CPU was busy with another task as well
  rx["core_busy_pct"] = 96.0;
  auto r = cpu_flow(kLoopbackLink, 5, tx, rx);
  r.extra["src_host"] = "b";
  EXPECT_EQ(host_cpu_limit(r).value_or("").rfind("the sender and the receiver shared CPU 0, 97 % busy", 0), 0u);
  r.extra["cpu"]["sender"]["core_busy_pct"] = 60.0;
  r.extra["cpu"]["receiver"]["core_busy_pct"] = nullptr;
  EXPECT_FALSE(host_cpu_limit(r)) << "63 % of one core";
  json lone = cpu_end(1, 40, 3);
  lone["pinned"] = true;
  lone["core_busy_pct"] = 99.4;
  EXPECT_EQ(host_cpu_limit(cpu_flow(kShapedLink, 0.5, cpu_end(1, 20, 1), lone)).value_or(""), kReceiverBusy);
}
