// The congestion test's pure parts: who are victims and congestors (congestion_plan) and the records
// with their CIF (congestion_records).
#include <gtest/gtest.h>

#include <set>

#include "bench/suites/tcp/congestion_plan.hpp"
#include "bench/suites/tcp/congestion_records.hpp"

namespace gpunet::bench::tcp {
namespace {

std::vector<Node> congestion_nodes(int n) {
  std::vector<Node> out;
  for (int i = 0; i < n; ++i) out.push_back(Node{i, "node-" + std::to_string(i), {}, {}, "", -1});
  return out;
}

TEST(CongestionPlan, FewerThanFourParticipantsSayWhy) {
  const auto p = congestion_plan(3);
  EXPECT_TRUE(p.victims.empty());
  EXPECT_NE(p.why_not.find("4 or more"), std::string::npos) << p.why_not;
  EXPECT_NE(p.why_not.find("has 3"), std::string::npos) << p.why_not;
}

TEST(CongestionPlan, FourNodesOneVictimPairTwoCongestorsIntoItsReceiver) {
  const auto p = congestion_plan(4);
  EXPECT_TRUE(p.why_not.empty());
  EXPECT_EQ(p.victims, (std::vector<FlowSpec>{{0, 2}}));
  EXPECT_EQ(p.congestors, (std::vector<int>{1, 3}));
  EXPECT_EQ(p.incast, (std::vector<FlowSpec>{{1, 2}, {3, 2}}));
  EXPECT_EQ(p.all_to_all, (std::vector<FlowSpec>{{1, 3}, {3, 1}}));
  EXPECT_EQ(congestor_flows(p).size(), 4u);
}

TEST(CongestionPlan, TwentyPercentOfNodesAreVictimsDisjointFromCongestors) {
  for (const int n : {4, 5, 9, 10, 19, 20, 37, 64, 100}) {
    const auto p = congestion_plan(n);
    const size_t pairs = static_cast<size_t>(std::max(1, n / 10));
    ASSERT_EQ(p.victims.size(), pairs) << n;
    std::set<int> victims;
    for (const auto& v : p.victims) {
      EXPECT_TRUE(victims.insert(v.src).second) << n;
      EXPECT_TRUE(victims.insert(v.dst).second) << n;
      EXPECT_LT(v.dst, n);
    }
    EXPECT_EQ(victims.size() + p.congestors.size(), static_cast<size_t>(n)) << n;
    for (const int c : p.congestors) EXPECT_EQ(victims.count(c), 0u) << n;
    // Every congestor sends one incast flow, into a victim's receiver; all-to-all stays among congestors.
    ASSERT_EQ(p.incast.size(), p.congestors.size()) << n;
    for (const auto& f : p.incast) {
      EXPECT_EQ(victims.count(f.src), 0u);
      EXPECT_TRUE(std::any_of(p.victims.begin(), p.victims.end(), [&](const FlowSpec& v) { return v.dst == f.dst; }));
    }
    for (const auto& f : p.all_to_all) EXPECT_TRUE(victims.count(f.src) == 0 && victims.count(f.dst) == 0) << n;
    // Bounded: at most kAllToAllGroup - 1 all-to-all flows leave a congestor.
    EXPECT_LE(p.all_to_all.size(), p.congestors.size() * (kAllToAllGroup - 1)) << n;
    EXPECT_EQ(congestion_plan(n).victims, p.victims) << "deterministic";
  }
  EXPECT_EQ(congestion_plan(20).victims, (std::vector<FlowSpec>{{0, 5}, {10, 15}}));
}

TEST(CongestionPlan, WithKnownRacksEveryVictimPairCrossesRacks) {
  // Racks interleaved (not in rank order): rank order alone would pair 0 with 4, both in rack 0.
  const std::vector<int> racks{0, 0, 1, 1, 0, 0, 1, 1};
  EXPECT_EQ(congestion_plan(8).victims, (std::vector<FlowSpec>{{0, 4}}));
  const auto p = congestion_plan(8, racks);
  ASSERT_EQ(p.victims, (std::vector<FlowSpec>{{0, 6}}));
  EXPECT_EQ(p.congestors, (std::vector<int>{1, 2, 3, 4, 5, 7}));
  for (const auto& f : p.incast) EXPECT_EQ(f.dst, 6);
  // 20 nodes in 4 racks of 5 in rank order: (0, 5) and (10, 15) already cross racks and are kept.
  std::vector<int> rank_order;
  for (int i = 0; i < 20; ++i) rank_order.push_back(i / 5);
  EXPECT_EQ(congestion_plan(20, rank_order).victims, (std::vector<FlowSpec>{{0, 5}, {10, 15}}));
  // 20 nodes in 2 racks alternating by rank: each receiver moves to the next node in the other rack,
  // never onto the other pair's sender.
  std::vector<int> odd_even;
  for (int i = 0; i < 20; ++i) odd_even.push_back(i % 2);
  const auto q = congestion_plan(20, odd_even);
  EXPECT_EQ(q.victims, (std::vector<FlowSpec>{{0, 5}, {10, 15}})) << "5 and 15 are already in the other rack";
  std::vector<int> halves;  // racks 0-9 and 10-19: (0, 5) is inside rack 0
  for (int i = 0; i < 20; ++i) halves.push_back(i / 10);
  EXPECT_EQ(congestion_plan(20, halves).victims, (std::vector<FlowSpec>{{0, 11}, {10, 1}}))
      << "each receiver is the first free node of the other rack after the rank-order one (10 sends for the other "
         "pair, 0 for the first)";
  // Hosts the fabric does not place keep the rank-order choice.
  EXPECT_EQ(congestion_plan(8, std::vector<int>(8, -1)).victims, congestion_plan(8).victims);
}

VictimFigures victim_figures(int src, int dst, double p50, double p50c, double p99, double p99c, double bw, double bwc) {
  VictimFigures v;
  v.victim = {src, dst};
  v.measures["latency_p50"] = {p50, p50c, report::Status::passed, ""};
  v.measures["latency_p99"] = {p99, p99c, report::Status::passed, ""};
  v.measures["bandwidth"] = {bw, bwc, report::Status::passed, ""};
  return v;
}

TEST(CongestionRecords, EachRecordsCifIsItsOwnCongestedOverIsolatedAndTheOverallIsTheMeanAndWorst) {
  const auto nodes = congestion_nodes(20);
  CongestionLoad load;
  load.congestors = 16;
  const auto recs = congestion_records({victim_figures(0, 5, 10, 30, 20, 100, 0.09, 0.03), victim_figures(10, 15, 10, 20, 20, 40, 0.09, 0.06)},
                                       nodes, load);
  ASSERT_EQ(recs.size(), 9u);  // 3 measures x (2 victims + overall)
  for (const auto& r : recs) {
    ASSERT_EQ(r.status, report::Status::passed) << r.reason;
    ASSERT_TRUE(r.figure);
    EXPECT_EQ(r.figure->metric, "congestion.cif_" + r.variant);
    EXPECT_EQ(r.figure->better, report::Better::lower);
    if (r.figure->subject.kind != report::SubjectKind::pair) continue;
    const double iso = r.extra.at("isolated").get<double>(), con = r.extra.at("congested").get<double>();
    EXPECT_DOUBLE_EQ(r.figure->value, r.variant == "bandwidth" ? iso / con : con / iso) << r.variant;
  }
  EXPECT_EQ(recs[0].extra.at("victim"), "node-0 -> node-5");
  EXPECT_DOUBLE_EQ(recs[0].figure->value, 3.0);
  const auto& p99_overall = recs[5];
  EXPECT_EQ(p99_overall.figure->subject.kind, report::SubjectKind::cluster);
  EXPECT_DOUBLE_EQ(p99_overall.figure->value, (5.0 + 2.0) / 2);
  EXPECT_DOUBLE_EQ(p99_overall.extra.at("worst").get<double>(), 5.0);
  EXPECT_EQ(p99_overall.extra.at("worst_victim"), "node-0 -> node-5");
  EXPECT_NEAR(recs[8].extra.at("worst").get<double>(), 3.0, 1e-12);  // bandwidth: 0.09 / 0.03
}

TEST(CongestionRecords, AFailedOrZeroMeasurementFailsItsRecordWithTheReason) {
  auto v = victim_figures(0, 2, 10, 30, 20, 100, 0.09, 0.0);
  v.measures["latency_p50"] = {0, 0, report::Status::timed_out, "congested: no echo in 5 s"};
  const auto recs = congestion_records({v}, congestion_nodes(4), {});
  ASSERT_EQ(recs.size(), 6u);  // per measure: the victim, then the overall
  EXPECT_EQ(recs[0].status, report::Status::timed_out);
  EXPECT_EQ(recs[0].reason, "congested: no echo in 5 s");
  EXPECT_FALSE(recs[0].figure);
  EXPECT_EQ(recs[1].status, report::Status::failed);  // the overall of a measure no victim delivered
  EXPECT_EQ(recs[4].status, report::Status::failed);  // bandwidth congested at 0: no CIF
  EXPECT_NE(recs[4].reason.find("no CIF"), std::string::npos) << recs[4].reason;
  EXPECT_EQ(recs[5].status, report::Status::failed);
  EXPECT_EQ(recs[2].status, report::Status::passed);  // latency p99 is fine
}

}  // namespace
}  // namespace gpunet::bench::tcp
