#include <gtest/gtest.h>

#include "bench/suites/tcp/console.hpp"
#include "bench/suites/tcp/records.hpp"
#include "report/analysis/analysis.hpp"

using namespace gpunet::bench::tcp;
using namespace gpunet::bench::net;
using gpunet::report::Status;

namespace {

std::vector<Node> shaped_nodes(const std::vector<double>& rates) {
  std::vector<Node> nodes;
  for (size_t i = 0; i < rates.size(); ++i) {
    Node n;
    n.rank = static_cast<int>(i) * 2;  // ranks differ from participant indices
    n.host = "node" + std::to_string(i);
    n.endpoint.ip = *parse_ip("10.77.0." + std::to_string(i + 1));
    n.endpoint.port = static_cast<uint16_t>(40000 + i);
    n.link.iface = "eth0";
    n.link.mtu = 1500;
    n.link.shaped_rate_bps = rates[i];
    nodes.push_back(n);
  }
  return nodes;
}

constexpr double kTbf1G = 1e9 * 1448.0 / 1514.0;

}  // namespace

TEST(TcpRecords, FlowCeilingSharesTheBusyEnd) {
  const auto nodes = shaped_nodes({1e9, 1e9, 1e9, 250e6});
  BandwidthTest incast;
  incast.variant = "many-to-one";
  incast.flows = {{1, 0}, {2, 0}, {3, 0}};
  auto c = flow_ceiling(incast, {1, 0}, nodes);
  ASSERT_TRUE(c.known);
  EXPECT_NEAR(c.value * 1e9, kTbf1G / 3, 1);
  EXPECT_NE(c.derivation.find("shared by 3 flows"), std::string::npos) << c.derivation;
  c = flow_ceiling(incast, {3, 0}, nodes);  // the slow sender limits its own flow
  EXPECT_NEAR(c.value * 1e9, kTbf1G / 4, 1);
  BandwidthTest pair;
  pair.flows = {{0, 1}, {1, 0}};  // both directions: full duplex, nothing shared
  EXPECT_NEAR(flow_ceiling(pair, {0, 1}, nodes).value * 1e9, kTbf1G, 1);
}

TEST(TcpRecords, FairShareCountsOnlyTheFlowsThatRan) {
  BandwidthTest fan;
  fan.variant = "one-to-many";
  fan.flows = {{0, 1}, {0, 2}, {0, 3}};
  EXPECT_EQ(flow_shares(fan, {0, 1}).sending, 3);
  EXPECT_EQ(flow_shares(fan, {0, 1}, {true, true, false}).sending, 2);  // the flow to 3 failed
  EXPECT_EQ(flow_shares(fan, {0, 1}, {true, false, false}).sending, 1);

  // The records: two flows completed, the third failed; their ceiling is the sender's link halved.
  const auto nodes = shaped_nodes({1e9, 1e9, 1e9, 1e9});
  TestResults res;
  res.sent.resize(4);
  res.received.resize(4);
  res.rejected.resize(4);
  for (int d = 1; d <= 3; ++d) {
    SendResult tx;
    tx.peer = static_cast<uint32_t>(2 * d);
    tx.bytes = 100'000'000;
    ReceiveResult rx;
    rx.peer = 0;
    rx.bytes = 100'000'000;
    rx.seconds = 2;
    rx.goodput_bps = 0.47e9;
    if (d == 3) {
      tx.status = rx.status = Status::timed_out;
      tx.reason = rx.reason = "connect: Connection timed out";
      rx.goodput_bps = 0;
    }
    res.sent[0].push_back(tx);
    res.received[static_cast<size_t>(d)] = {rx};
  }
  const auto recs = bandwidth_records(fan, res, nodes, gpunet::bench::TcpConfig{}, RunFacts{});
  ASSERT_EQ(recs.size(), 4u);  // three flows and the aggregate
  EXPECT_EQ(recs[0].figure->sending_share, 2);
  EXPECT_EQ(recs[2].status, Status::timed_out);
  const gpunet::json no_topology = gpunet::json::object();
  const auto c = gpunet::report::figure_ceiling(recs[0], {}, gpunet::report::TopologyView(no_topology));
  EXPECT_NEAR(c.value * 1e9, kTbf1G / 2, 1);
  EXPECT_LT(0.47e9 / (c.value * 1e9), 1.0);  // 98 %, not 147 % of a third
}

TEST(TcpRecords, BandwidthRecordNamesBothEndsAndCarriesTheFigures) {
  const auto nodes = shaped_nodes({1e9, 1e9});
  BandwidthTest t;
  t.variant = "neighbours";
  t.flows = {{0, 1}};
  TestResults res;
  res.sent.resize(2);
  res.received.resize(2);
  res.rejected.resize(2);
  SendResult tx;
  tx.peer = 2;  // rank of participant 1
  tx.bytes = 250'000'000;
  TcpInfo ti;
  ti.total_retrans = 7;
  ti.snd_mss = 1448;
  tx.tcp_info = {ti};
  res.sent[0] = {tx};
  ReceiveResult rx;
  rx.peer = 0;  // rank of participant 0
  rx.bytes = 250'000'000;
  rx.seconds = 2.1;
  rx.goodput_bps = 0.95e9;
  rx.timeline_Gbps = {0.95, 0.95, 0.2, 0.95};
  res.received[1] = {rx};
  res.rejected[1].add_stranger("10.77.0.9:1234: not a gpunet-bench hello");
  gpunet::bench::TcpConfig cfg;
  const auto recs = bandwidth_records(t, res, nodes, cfg, RunFacts{});
  ASSERT_EQ(recs.size(), 1u);
  const auto& r = recs[0];
  EXPECT_EQ(r.status, Status::passed);
  EXPECT_EQ(r.suite, "tcp");
  EXPECT_EQ(r.host, "node1");
  EXPECT_EQ(r.extra["src_host"], "node0");
  EXPECT_EQ(r.extra["dst_host"], "node1");
  EXPECT_DOUBLE_EQ(r.extra["goodput_Gbps"].get<double>(), 0.95);
  ASSERT_TRUE(r.figure);
  EXPECT_EQ(r.figure->metric, "tcp.goodput");
  EXPECT_EQ(gpunet::report::subject_key(r.figure->subject), "pair:node0/0->node1/2");
  EXPECT_EQ(r.figure->parameters.at("test"), "neighbours");
  EXPECT_EQ(r.figure->samples, (std::vector<double>{0.95, 0.95, 0.2, 0.95}));
  EXPECT_FALSE(r.figure->ceiling);  // the analysis attaches it, not the suite
  const gpunet::report::Provenance none;
  const gpunet::json no_topology = gpunet::json::object();
  const auto ceiling = gpunet::report::figure_ceiling(r, none, gpunet::report::TopologyView(no_topology));
  ASSERT_TRUE(ceiling.known);
  EXPECT_NEAR(ceiling.value, kTbf1G / 1e9, 1e-12);
  EXPECT_EQ(cell_of(r, {0, 1}).ceiling_bps, ceiling.value * 1e9);
  EXPECT_EQ(r.extra["link"]["kind"], "ethernet");
  EXPECT_DOUBLE_EQ(r.extra["link"]["shaped_rate_bps"].get<double>(), 1e9);
  EXPECT_EQ(r.extra["tcp_info"][0]["retransmits"], 7);
  EXPECT_EQ(r.extra["rejected_connections"], 1);
  EXPECT_EQ(r.extra["unauthenticated_connections"], 1);
  EXPECT_EQ(r.reason, "listener on node1: 1 unauthenticated connection rejected");  // a passed flow says it too
  EXPECT_EQ(r.extra["stability"]["dips"].size(), 1u);  // the 0.2 interval
  EXPECT_EQ(r.extra["path"], "network");
  auto shown = r;
  gpunet::report::attach_ceiling(shown, none, gpunet::report::TopologyView(no_topology));
  const std::string line = console_line(shown);
  EXPECT_NE(line.find("node0 -> node1"), std::string::npos) << line;
  EXPECT_NE(line.find("0.950 Gb/s"), std::string::npos) << line;
  EXPECT_NE(line.find("99.3% of 0.956 Gb/s"), std::string::npos) << line;
}

TEST(TcpRecords, MissingOrFailedSidesMakeTheRecordFail) {
  const auto nodes = shaped_nodes({1e9, 1e9});
  BandwidthTest t;
  t.flows = {{0, 1}};
  TestResults res;
  res.sent.resize(2);
  res.received.resize(2);
  gpunet::bench::TcpConfig cfg;
  auto recs = bandwidth_records(t, res, nodes, cfg, RunFacts{});
  EXPECT_EQ(recs[0].status, Status::failed);
  EXPECT_NE(recs[0].reason.find("no result from the receiver on node1"), std::string::npos) << recs[0].reason;

  ReceiveResult rx;
  rx.peer = 0;
  rx.status = Status::timed_out;
  rx.reason = "no data for 2.0 s after 1000 bytes";
  res.received[1] = {rx};
  SendResult tx;
  tx.peer = 2;
  res.sent[0] = {tx};
  recs = bandwidth_records(t, res, nodes, cfg, RunFacts{});
  EXPECT_EQ(recs[0].status, Status::timed_out);
  EXPECT_EQ(recs[0].reason, "receiver node1: no data for 2.0 s after 1000 bytes");

  // What the listener turned away is told as it was: strangers apart from refused peer streams.
  res.rejected.resize(2);
  res.rejected[1].add_stranger("10.77.0.9:1234: no complete hello within the timeout");
  res.rejected[1].add_stranger("10.77.0.9:1235: wrong answer to the challenge (its hello claimed sender 0, stream 0)");
  res.rejected[1].add("10.77.0.1:4000: duplicate stream 0 from sender 0");
  recs = bandwidth_records(t, res, nodes, cfg, RunFacts{});
  EXPECT_EQ(recs[0].reason,
            "receiver node1: no data for 2.0 s after 1000 bytes; listener on node1: 2 unauthenticated connections "
            "rejected, 1 authenticated peer stream refused");
  EXPECT_EQ(recs[0].extra["rejected_connections"], 3);
  EXPECT_EQ(recs[0].extra["unauthenticated_connections"], 2);
}

TEST(TcpRecords, SlowReasonAgainstBestAndCeiling) {
  Cell ok{0, 1, 0.94e9, kTbf1G, Status::passed};
  Cell slow{0, 3, 0.239e9, 0.239e9, Status::passed};  // at its own ceiling, but a quarter of the best
  Cell below_ceiling{1, 2, 0.5e9, kTbf1G, Status::passed};
  Cell failed{2, 3, 0, kTbf1G, Status::timed_out};
  const double best = best_goodput({ok, slow, below_ceiling, failed});
  EXPECT_DOUBLE_EQ(best, 0.94e9);
  EXPECT_EQ(slow_reason(ok, best, 0.8), "");
  EXPECT_NE(slow_reason(slow, best, 0.8).find("of the best pair"), std::string::npos);
  EXPECT_NE(slow_reason(below_ceiling, best, 0.8).find("of its ceiling"), std::string::npos);
  EXPECT_EQ(slow_reason(failed, best, 0.8), "");  // a failure is reported as such, not as slow
}

TEST(TcpRecords, FindingsNameTheHostOrThePair) {
  const auto nodes = shaped_nodes({1e9, 1e9, 1e9, 1e9});
  std::vector<Cell> host3;
  for (int i = 0; i < 3; ++i) {
    host3.push_back({i, 3, 0.2e9, kTbf1G, Status::passed});
    host3.push_back({3, i, 0.2e9, kTbf1G, Status::passed});
  }
  auto f = findings(host3, nodes, 0.95e9, 0.8);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].variant, "host");
  EXPECT_EQ(f[0].host, "node3");
  EXPECT_EQ(f[0].extra["finding"]["host"], "node3");
  EXPECT_EQ(f[0].status, Status::failed);
  EXPECT_NE(f[0].reason.find("host node3"), std::string::npos);

  f = findings({{1, 2, 0.3e9, kTbf1G, Status::passed}}, nodes, 0.95e9, 0.8);  // one bad cable
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].variant, "pair");
  EXPECT_EQ(f[0].extra["finding"]["src_host"], "node1");
  EXPECT_EQ(f[0].extra["finding"]["dst_host"], "node2");
  EXPECT_TRUE(findings({}, nodes, 0.95e9, 0.8).empty());
}

TEST(TcpRecords, AHostSlowOneWayIsSaidToBe) {
  const auto nodes = shaped_nodes({1e9, 300e6, 1e9, 1e9});
  std::vector<Cell> measured, confirmed;
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 4; ++d)
      if (s != d) measured.push_back({s, d, s == 1 ? 0.286e9 : 0.947e9, std::nullopt, Status::passed});
  for (const auto& c : measured)
    if (c.src == 1) confirmed.push_back(c);
  const auto f = findings(confirmed, nodes, 0.947e9, 0.9, measured);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].host, "node1");
  EXPECT_EQ(f[0].extra["finding"]["direction"], "sending");
  EXPECT_EQ(f[0].reason.rfind("host node1: slow sending: 3 of 3 flows from it at 0.286 Gb/s, flows into it at 0.947 Gb/s", 0), 0u)
      << f[0].reason;
  EXPECT_EQ(f[0].reason.find("every pair"), std::string::npos);
}

TEST(TcpRecords, EveryNodeSlowIsACommonCause) {
  const auto nodes = shaped_nodes({1e9, 1e9, 1e9});
  std::vector<Cell> all;
  for (int s = 0; s < 3; ++s)
    for (int d = 0; d < 3; ++d)
      if (s != d) all.push_back({s, d, 0.2e9, kTbf1G, Status::passed});
  const auto f = findings(all, nodes, 0.2e9, 0.8, all);
  ASSERT_EQ(f.size(), 1u);  // not one "suspect its NIC" per node
  EXPECT_EQ(f[0].extra["finding"]["subject"], "network");
  EXPECT_NE(f[0].reason.find("the cause looks common"), std::string::npos) << f[0].reason;
  EXPECT_EQ(f[0].reason.find("NIC, cable"), std::string::npos);
}

TEST(TcpRecords, MatrixRecord) {
  const auto nodes = shaped_nodes({1e9, 1e9, 1e9});
  std::vector<Cell> cells;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (i != j) cells.push_back({i, j, (i + 1) * 0.1e9 + j * 0.01e9, kTbf1G, Status::passed});
  cells.back().status = Status::failed;
  const auto m = matrix_record(cells, nodes, 3, {cells[0]}, {}, 0.8);
  EXPECT_EQ(m.name, "matrix");
  EXPECT_EQ(m.status, Status::failed);
  const auto& g = m.extra["goodput_Gbps"];
  ASSERT_EQ(g.size(), 3u);
  EXPECT_TRUE(g[0][0].is_null());
  EXPECT_NEAR(g[0][1].get<double>(), 0.11, 1e-12);
  EXPECT_NEAR(g[1][0].get<double>(), 0.2, 1e-12);
  EXPECT_TRUE(g[2][1].is_null());  // the failed one
  EXPECT_EQ(m.extra["suspects"][0]["src_host"], "node0");
  EXPECT_EQ(m.extra["hosts"][2], "node2");
}

TEST(TcpRecords, ASampledMatrixNamesASlowNodeOnlyWithTwoPartnersAndNoFineOne) {
  const auto nodes = shaped_nodes({1e9, 1e9, 1e9, 1e9, 1e9, 1e9});
  // Ring 0-1-2-3-4-5-0, node 0 slow both ways with 1 and 5; re-tested, and against node 3 (a partner that passed).
  std::vector<Cell> measured, confirmed;
  for (int i = 0; i < 6; ++i) {
    const int j = (i + 1) % 6;
    const bool slow = i == 0 || j == 0;
    measured.push_back({i, j, slow ? 0.2e9 : 0.94e9, kTbf1G, Status::passed});
    measured.push_back({j, i, slow ? 0.2e9 : 0.94e9, kTbf1G, Status::passed});
  }
  for (const FlowSpec f : {FlowSpec{0, 1}, FlowSpec{1, 0}, FlowSpec{0, 5}, FlowSpec{5, 0}, FlowSpec{0, 3}, FlowSpec{3, 0}}) {
    const Cell c{f.src, f.dst, 0.2e9, kTbf1G, Status::passed};
    measured.push_back(c);
    confirmed.push_back(c);
  }
  auto f = findings(confirmed, nodes, 0.94e9, 0.8, measured);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].host, "node0");
  EXPECT_NE(f[0].reason.find("3 partners"), std::string::npos) << f[0].reason;

  // Evidence from one partner only: the pair, not the node.
  const std::vector<Cell> one{{0, 1, 0.2e9, kTbf1G, Status::passed}, {1, 0, 0.2e9, kTbf1G, Status::passed}};
  f = findings(one, nodes, 0.94e9, 0.8, measured);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].variant, "pair");

  // A partner that re-tested fine clears the node: slow with 1 and 5, fine with 3.
  measured.back() = {3, 0, 0.93e9, kTbf1G, Status::passed};
  measured[measured.size() - 2] = {0, 3, 0.93e9, kTbf1G, Status::passed};
  confirmed.resize(4);
  f = findings(confirmed, nodes, 0.94e9, 0.8, measured);
  for (const auto& r : f) EXPECT_EQ(r.variant, "pair") << r.reason;
}

TEST(TcpRecords, CoverageSaysWhatASampleCannotRuleOut) {
  EXPECT_EQ(coverage_sentence(240, 16, "all", 0), "240 of 240 directed pairs measured (all)");
  const auto s = coverage_sentence(48, 16, "random:3", 7);
  EXPECT_EQ(s.rfind("48 of 240 directed pairs measured (random:3, seed 7); a pair not measured may be slow unseen", 0), 0u) << s;
  const auto racked = coverage_sentence(48, 16, "random:3", 7, 24);
  EXPECT_EQ(racked.rfind("48 of 240 directed pairs measured (random:3, seed 7, partners drawn across and within leaf switches: "
                         "24 of 24 pairs between two); a pair not measured", 0), 0u) << racked;
  gpunet::report::Record m;
  m.ranks = 4;
  m.variant = "all pairs";
  m.extra["hosts"] = {"a", "b", "c", "d"};
  add_coverage(m, {"ring", 0, 4, 2, {{0, 1, 0.2e9, kTbf1G, Status::passed}}}, 0.94e9, 0.8);
  EXPECT_EQ(m.variant, "ring pairs");
  EXPECT_EQ(m.extra["directed_pairs_measured"], 8);
  EXPECT_EQ(m.extra["directed_pairs"], 12);
  EXPECT_EQ(m.extra["not_retested"][0]["src_host"], "a");
  EXPECT_NE(m.extra["not_retested_note"].get<std::string>().find("1 suspect directions were not re-tested"), std::string::npos);
  EXPECT_FALSE(m.extra.contains("pairs_seed"));
}
