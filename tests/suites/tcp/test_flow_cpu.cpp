// Each flow end's CPU: the percent arithmetic, its JSON between ranks and in the record.
#include <gtest/gtest.h>

#include "bench/suites/tcp/flow_cpu.hpp"
#include "bench/suites/tcp/json.hpp"
#include "bench/suites/tcp/records.hpp"

using namespace gpunet::bench::tcp;

TEST(TcpFlowCpu, SharesOfTheWindowInPercent) {
  const auto c = flow_cpu({1.0, 2.0}, {1.05, 2.95}, 1.0, 3, true);
  EXPECT_TRUE(c.measured);
  EXPECT_NEAR(c.user_pct, 5.0, 1e-9);
  EXPECT_NEAR(c.sys_pct, 95.0, 1e-9);
  EXPECT_EQ(c.cpu, 3);
  EXPECT_TRUE(c.pinned);
  const auto half = flow_cpu({0, 0}, {0.1, 0.15}, 0.5, 0, false);
  EXPECT_NEAR(half.user_pct, 20.0, 1e-9);
  EXPECT_NEAR(half.sys_pct, 30.0, 1e-9);
  EXPECT_FALSE(flow_cpu({0, 0}, {1, 1}, 0.0, 0, false).measured);  // an empty window measures nothing
  EXPECT_EQ(flow_cpu({2, 2}, {1, 1}, 1.0, 0, false).user_pct, 0.0);  // a clock that went back is no negative load
}

TEST(TcpFlowCpu, WindowMeasuresTheCallingThreadOnce) {
  FlowCpuWindow w;
  const auto t0 = FlowCpuWindow::Clock::now();
  w.close(t0);  // closing an unopened window does nothing
  EXPECT_FALSE(w.result().measured);
  w.open(t0);
  w.close(t0 + std::chrono::milliseconds(100));
  EXPECT_TRUE(w.result().measured);
  EXPECT_GE(w.result().cpu, 0);
  const double first = w.result().user_pct;
  w.close(t0 + std::chrono::seconds(100));  // a second close keeps the first figure
  EXPECT_EQ(w.result().user_pct, first);
}

TEST(TcpFlowCpu, TravelsBetweenRanksAndLandsInTheRecord) {
  ReceiveResult rx;
  rx.peer = 0;
  rx.bytes = 1000;
  rx.goodput_bps = 1e9;
  rx.cpu = flow_cpu({0, 0}, {0.03, 0.58}, 1.0, 1, false);
  const auto back = gpunet::json(rx).get<ReceiveResult>();
  EXPECT_TRUE(back.cpu.measured);
  EXPECT_NEAR(back.cpu.sys_pct, 58.0, 1e-9);
  SendResult tx;
  tx.peer = 1;
  tx.bytes = 1000;
  const auto tx_back = gpunet::json(tx).get<SendResult>();  // not measured: null, read back as not measured
  EXPECT_FALSE(tx_back.cpu.measured);

  std::vector<Node> nodes(2);
  nodes[0].rank = 0;
  nodes[0].host = "h";
  nodes[1].rank = 1;
  nodes[1].host = "h";
  BandwidthTest t;
  t.variant = "neighbours";
  t.flows = {{0, 1}};
  TestResults res;
  res.sent = {{tx_back}, {}};
  res.received = {{}, {back}};
  res.rejected.resize(2);
  res.sent[0][0].cpu = flow_cpu({0, 0}, {0.04, 0.94}, 1.0, 0, false);
  const auto recs = bandwidth_records(t, res, nodes, gpunet::bench::TcpConfig{}, RunFacts{true, 0});
  ASSERT_EQ(recs.size(), 1u);
  const auto& cpu = recs[0].extra.at("cpu");
  EXPECT_NEAR(cpu.at("sender").at("sys_pct").get<double>(), 94.0, 1e-9);
  EXPECT_EQ(cpu.at("sender").at("cpu"), 0);
  EXPECT_NEAR(cpu.at("receiver").at("user_pct").get<double>(), 3.0, 1e-9);
  EXPECT_EQ(cpu.at("receiver").at("cpu"), 1);
}

TEST(TcpFlowCpu, CoreBusyShareBetweenTwoReadings) {
  EXPECT_NEAR(core_busy_pct({100, 1000}, {190, 1100}).value_or(-1), 90.0, 1e-9);
  EXPECT_FALSE(core_busy_pct({100, 1000}, {100, 1000}));  // no tick passed
  FlowCpu c;
  c.measured = true;
  c.core_busy_pct = 97.5;
  EXPECT_NEAR(gpunet::json(c).get<FlowCpu>().core_busy_pct.value_or(-1), 97.5, 1e-9);
  EXPECT_FALSE(gpunet::json(FlowCpu{true, 1, 2, 0, true, std::nullopt}).get<FlowCpu>().core_busy_pct);
}
