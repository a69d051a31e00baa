// Ceilings and diagnoses per direction (issue 26, items 3 and 4): a receiver's egress shaper does
// not bound what it receives once its flows ran above it, a host slow one way only is said to be, and
// failed flows that all involve one host name it.
#include <gtest/gtest.h>

#include "report/analysis/analysis.hpp"
#include "report/judge/culprits.hpp"
#include "report/analysis/direction.hpp"
#include "report/analysis/flow_failures.hpp"
#include "report/analysis/path_ceilings.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

constexpr double kTbfPerBit = 1448.0 / 1514.0;  // goodput per bit/s of tbf rate, MTU 1500, IPv4, timestamps

json shaped_veth(double shaped_bps) {
  return {{"kind", "ethernet"}, {"iface", "eth0"}, {"driver", "veth"}, {"mtu", 1500}, {"shaped_rate_bps", shaped_bps}};
}

// A matrix flow from `src` to `dst` at `gbps`, node-1 shaped to 300 Mbit/s on what it sends only.
Record matrix_flow(int src, int dst, double gbps, Status status = Status::passed, double started_s = 0) {
  const auto host = [](int i) { return "node-" + std::to_string(i); };
  const auto link = [](int i) { return shaped_veth(i == 1 ? 300e6 : 1e9); };
  Record r;
  r.suite = "tcp";
  r.name = "bandwidth";
  r.variant = "matrix";
  r.host = host(dst);
  r.status = status;
  if (status != Status::passed) r.reason = "receiver " + host(dst) + ": connect: Connection timed out";
  r.extra = {{"src_host", host(src)}, {"dst_host", host(dst)}, {"link", link(src)}, {"dst_link", link(dst)},
             {"started_s", started_s}};
  r.figure = rate_figure("tcp.goodput", gbps, "Gb/s", pair_subject(host(src), src, host(dst), dst), PathModel::tcp_flow);
  r.figure->parameters["test"] = "matrix";
  return r;
}

}  // namespace

TEST(DirectionCeiling, AReceiversEgressShaperBoundsWhatItReceivesOnlyByAssumption) {
  const auto assumed = incoming_link_ceiling(shaped_veth(300e6), false);
  ASSERT_TRUE(assumed.known);
  EXPECT_NEAR(assumed.value, 0.3 * kTbfPerBit, 1e-9);
  EXPECT_NE(assumed.derivation.find("taken to bound what it receives too"), std::string::npos) << assumed.derivation;
  const auto egress_only = incoming_link_ceiling(shaped_veth(300e6), true);
  EXPECT_FALSE(egress_only.known);  // a veth's incoming rate is nobody's wire rate
  EXPECT_NE(egress_only.unknown_reason.find("shapes only what it sends"), std::string::npos);
  json policed = shaped_veth(300e6);
  policed["ingress_rate_bps"] = 500e6;  // a policer on what it receives bounds that direction
  EXPECT_NEAR(incoming_link_ceiling(policed, true).value, 0.5 * kTbfPerBit, 1e-9);
}

TEST(DirectionCeiling, AFlowIsBoundedBySendersOutgoingAndReceiversIncoming) {
  // Into the one-way shaped node: the sender's 1 Gbit/s, not the receiver's sending shaper.
  auto c = tcp_flow_ceiling(shaped_veth(1e9), shaped_veth(300e6), 1, 1, true);
  ASSERT_TRUE(c.known);
  EXPECT_NEAR(c.value, kTbfPerBit, 1e-9);
  EXPECT_NE(c.derivation.find("sender's outgoing rate"), std::string::npos) << c.derivation;
  // Out of it: its own shaper.
  c = tcp_flow_ceiling(shaped_veth(300e6), shaped_veth(1e9), 1, 1, false);
  EXPECT_NEAR(c.value, 0.3 * kTbfPerBit, 1e-9);
  // Without evidence, the receiver's shaper is still taken to bound it (fakecluster shapes both ends).
  EXPECT_NEAR(tcp_flow_ceiling(shaped_veth(1e9), shaped_veth(300e6), 1, 1).value, 0.3 * kTbfPerBit, 1e-9);
}

TEST(DirectionCeiling, FlowsAboveAReceiversShaperAreEvidence) {
  std::vector<Record> recs = {matrix_flow(0, 1, 0.947), matrix_flow(1, 0, 0.286), matrix_flow(2, 3, 0.95)};
  EXPECT_EQ(hosts_receiving_above_shaper(recs), std::set<std::string>{"node-1"});
  recs[0].figure->value = 0.29;  // within a tbf burst of the shaper: no evidence
  EXPECT_TRUE(hosts_receiving_above_shaper(recs).empty());
}

TEST(DirectionCeiling, NoEfficiencyAboveOneWhenANodeIsShapedOnItsSendingSide) {
  Report rep;
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 4; ++d)
      if (s != d) rep.results.push_back(matrix_flow(s, d, s == 1 ? 0.286 : 0.947));
  rep.results.push_back(matrix_flow(2, 1, 0.95));  // a re-test into node-1 at the same rate: same ceiling
  analyze(rep);
  for (const auto& r : rep.results) {
    ASSERT_TRUE(r.figure->efficiency) << r.figure->subject.host << " -> " << r.figure->subject.dst_host;
    EXPECT_LE(*r.figure->efficiency, 1.0) << r.figure->subject.host << " -> " << r.figure->subject.dst_host << ": "
                                         << (r.figure->ceiling ? r.figure->ceiling->derivation : "");
  }
  EXPECT_EQ(rep.extra["analysis"]["counts"]["above_ceiling"], 0);
  // Alone (the live console's view), a flow into node-1 is its own evidence.
  const json no_topology = json::object();
  const auto alone = figure_ceiling(matrix_flow(0, 1, 0.947), Provenance{}, TopologyView(no_topology));
  EXPECT_NEAR(alone.value, kTbfPerBit, 1e-9);
}

TEST(OneWaySlowness, SaysWhichWayAndHowFastTheOtherWayRan) {
  std::vector<DirectedRate> all, slow;
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 4; ++d)
      if (s != d) all.push_back({"node-" + std::to_string(s), "node-" + std::to_string(d), s == 1 ? 0.286 : 0.947});
  for (int d : {0, 2, 3}) slow.push_back({"node-1", "node-" + std::to_string(d), 0.286});
  EXPECT_EQ(one_way_slowness("node-1", slow, all), "slow sending: 3 of 3 flows from it at 0.286 Gb/s, flows into it at 0.947 Gb/s");
  std::vector<DirectedRate> in{{"node-0", "node-2", 0.1}, {"node-1", "node-2", 0.1}, {"node-3", "node-2", 0.1}};
  EXPECT_EQ(one_way_slowness("node-2", in, all).rfind("slow receiving: 3 of 3 flows into it at 0.1 Gb/s, flows from it at 0.947", 0), 0u);
  slow.push_back({"node-0", "node-1", 0.2});  // both ways: not one-way
  EXPECT_EQ(one_way_slowness("node-1", slow, all), "");
  EXPECT_EQ(one_way_slowness("node-3", {}, all), "");
}

TEST(FlowFailures, AllFailuresWithOneHostNameIt) {
  std::vector<FlowOutcome> flows = {
      {"node-0", "node-2", Status::passed, 2.0, ""},
      {"node-2", "node-0", Status::passed, 4.0, ""},
      {"node-0", "node-1", Status::passed, 14.0, ""},
      {"node-0", "node-2", Status::timed_out, 14.0, "receiver node-2: connect: Connection timed out; sender node-0: x"},
      {"node-2", "node-3", Status::failed, 16.0, "sender node-2: no data for 2.0 s"},
      {"node-1", "node-2", Status::failed, 18.0, "receiver node-2: connect: Connection timed out"}};
  const auto f = one_host_failing(flows);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->host, "node-2");
  EXPECT_EQ(f->failed, 3);
  EXPECT_EQ(f->with_host, 3);
  EXPECT_TRUE(f->ran_before);
  EXPECT_EQ(failure_sentence(*f), "3 of 3 flows with it failed from 14 s on (connection timed out): its data link went down?");
  for (int i : {0, 1}) {  // cut in its first flow: it cannot be reached ...
    flows[static_cast<size_t>(i)].status = Status::timed_out;
    flows[static_cast<size_t>(i)].reason = "no connection within 2.0 s";
  }
  EXPECT_FALSE(one_host_failing(flows)->ran_before);
  flows[3].moved_data = true;  // ... unless a failed flow had moved data first
  EXPECT_TRUE(one_host_failing(flows)->ran_before);
  flows.push_back({"node-0", "node-3", Status::failed, 20.0, "x"});  // a failure without node-2: no single host
  EXPECT_FALSE(one_host_failing(flows));
  EXPECT_FALSE(one_host_failing({{"a", "b", Status::failed, 1.0, "x"}}));  // one pair: either end
  EXPECT_FALSE(one_host_failing({{"a", "b", Status::passed, 1.0, ""}}));
}

TEST(FlowFailures, WhatIsWrongNamesTheHostWhoseFlowsFailed) {
  Report rep;
  rep.results = {matrix_flow(0, 2, 0.95, Status::passed, 2), matrix_flow(0, 1, 0.95, Status::passed, 14),
                 matrix_flow(0, 2, 0.1, Status::timed_out, 14), matrix_flow(2, 3, 0, Status::failed, 16)};
  const auto problems = what_is_wrong(rep).sentences;
  ASSERT_FALSE(problems.empty());  // first, before the note on the interface tcp measured (no argv here)
  EXPECT_EQ(problems[0], "node-2: 2 of 2 flows with it failed from 14 s on (connection timed out): its data link went down?");
}

TEST(DirectionVerdict, AFindingNamesTheDirectionsItCovers) {
  Record finding;
  finding.suite = "tcp";
  finding.name = "finding";
  finding.status = Status::failed;
  finding.extra = {{"finding", {{"subject", "host"}, {"host", "node-1"}, {"direction", "sending"}}}};
  const std::vector<Record> results{finding};
  EXPECT_TRUE(NamedSlow(results)(pair_subject("node-1", 1, "node-0", 0)));
  EXPECT_FALSE(NamedSlow(results)(pair_subject("node-0", 0, "node-1", 1)));  // into it: fine
  EXPECT_FALSE(NamedSlow(results)(pair_subject("node-2", 2, "node-3", 3)));
  std::vector<Record> both = results;
  both[0].extra["finding"].erase("direction");  // an older finding: both ways
  EXPECT_TRUE(NamedSlow(both)(pair_subject("node-0", 0, "node-1", 1)));
}

// The figures of one path hold one ceiling (a million flows, a few thousand paths); a figure whose gap
// is explained holds the one of its path and explanation, and a flow into another host another.
TEST(DirectionCeiling, FlowsOfOnePathHoldOneCeilingPerExplanationOfTheirGap) {
  Report rep;
  rep.results = {matrix_flow(0, 2, 0.947), matrix_flow(3, 2, 0.947), matrix_flow(4, 2, 0.3), matrix_flow(0, 3, 0.947),
                 matrix_flow(5, 2, 0.3), matrix_flow(6, 2, 0.2)};
  analyze(rep, AnalysisOptions{});
  const auto ceiling = [&](std::size_t i) { return rep.results[i].figure->ceiling; };
  ASSERT_TRUE(ceiling(0) && ceiling(0)->known);
  EXPECT_EQ(ceiling(0).get(), ceiling(1).get());  // into node-2 from two 1 Gbit/s senders
  ASSERT_TRUE(ceiling(2));
  EXPECT_NE(ceiling(2).get(), ceiling(0).get());  // below the threshold, with its own explanation
  EXPECT_FALSE(ceiling(2)->explanation.empty());
  EXPECT_EQ(ceiling(2)->derivation, ceiling(0)->derivation);
  EXPECT_EQ(ceiling(0)->explanation, "");
  ASSERT_TRUE(ceiling(3));
  EXPECT_NE(ceiling(3).get(), ceiling(0).get());
  EXPECT_DOUBLE_EQ(ceiling(3)->value, ceiling(0)->value);
  // Two flows into node-2 as slow as each other share the one explained ceiling; a slower one has its own.
  EXPECT_EQ(ceiling(4).get(), ceiling(2).get());
  ASSERT_TRUE(ceiling(5));
  EXPECT_NE(ceiling(5).get(), ceiling(2).get());
  EXPECT_NE(ceiling(5)->explanation, ceiling(2)->explanation);
  EXPECT_FALSE(ceiling(5)->explanation.empty());
}

// A results.jsonl's reader holds a flow's two hosts apart from extra (report/model/flow_facts.hpp): the
// receiver's shaper evidence, the shared ceilings and every efficiency read them there as in extra.
TEST(DirectionCeiling, HostsHeldApartFromExtraAnalyseAlike) {
  Report in_extra, held;
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 4; ++d)
      if (s != d) in_extra.results.push_back(matrix_flow(s, d, s == 1 ? 0.286 : d == 2 ? 0.3 : 0.947));
  for (auto& r : in_extra.results) r.kind = RecordKind::tcp_flow;
  held.results = in_extra.results;
  for (auto& r : held.results) {
    hold_flow_facts_apart(r);
    ASSERT_FALSE(r.extra.contains("dst_host"));
    ASSERT_EQ(extra_string(r, "dst_host"), r.figure->subject.dst_host);
  }
  EXPECT_EQ(hosts_receiving_above_shaper(held.results), hosts_receiving_above_shaper(in_extra.results));
  EXPECT_EQ(hosts_receiving_above_shaper(held.results), std::set<std::string>{"node-1"});
  analyze(in_extra);
  analyze(held);
  EXPECT_EQ(held.extra["analysis"], in_extra.extra["analysis"]);
  for (std::size_t i = 0; i < held.results.size(); ++i) {
    EXPECT_EQ(held.results[i].figure->efficiency, in_extra.results[i].figure->efficiency) << i;
    EXPECT_EQ(json(*held.results[i].figure).dump(), json(*in_extra.results[i].figure).dump()) << i;
  }
  // Flows into one host share its one ceiling whichever way the host is held.
  EXPECT_EQ(held.results[0].figure->ceiling.get(), held.results[7].figure->ceiling.get());  // 0->1, 2->1
}
