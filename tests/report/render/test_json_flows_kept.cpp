// report.json at scale: which TCP flows it keeps whole, the per-host summary, and a read-back.
#include <sstream>

#include <gtest/gtest.h>

#include "report/judge/verdicts_outputs.hpp"
#include "report/model/report_reader.hpp"
#include "report/render/json_flows_kept.hpp"
#include "report/render/renderers.hpp"
#include "tests/support/occurrences.hpp"

using namespace gpunet::report;
using gpunet::json;
using gpunet::test_support::occurrences;

namespace {

// A full matrix of `hosts` hosts at `efficiency` of a 100 Gb/s ceiling, h2's flows at 30 %, h3's
// flow to h4 failed, and one record that is no flow.
Report matrix(int hosts) {
  Report rep;
  for (int s = 0; s < hosts; ++s)
    for (int d = 0; d < hosts; ++d) {
      if (s == d) continue;
      const std::string src = "h" + std::to_string(s), dst = "h" + std::to_string(d);
      Record r;
      r.suite = "tcp";
      r.name = "bandwidth";
      r.kind = RecordKind::tcp_flow;
      const double eff = s == 2 || d == 2 ? 0.3 : 0.9;
      r.figure = rate_figure("tcp.goodput", 100 * eff, "Gb/s", pair_subject(src, s, dst, d), PathModel::tcp_flow);
      r.figure->efficiency = eff;
      if (s == 3 && d == 4) r.status = Status::failed;
      rep.results.push_back(std::move(r));
    }
  Record other;
  other.suite = "topo";
  other.name = "node";
  rep.results.push_back(other);
  return rep;
}

DocumentParts parts_naming(const Report& rep, const std::string& host) {
  WhatIsWrong wrong;
  if (!host.empty()) wrong.bad_nodes.push_back({host, "slow"});
  BlamedPairs blamed(rep, wrong.bad_nodes);
  return {std::make_shared<const Judgement>(), std::move(wrong), 0.8, std::move(blamed), {}, {}};
}

const json* side(const json& summary, const std::string& host, const char* way) {
  for (const auto& h : summary.at("hosts"))
    if (h.at("host") == host) return &h.at(way);
  return nullptr;
}

}  // namespace

TEST(JsonFlowsKept, UpToTheLimitEveryRecordIsWhole) {
  const Report rep = matrix(6);  // 30 flows
  const FlowsKept kept = flows_kept(rep, parts_naming(rep, ""), 30);
  EXPECT_TRUE(kept.whole.empty());
  EXPECT_TRUE(kept.summary.is_null());
}

TEST(JsonFlowsKept, AboveItTheFlowsAReaderMustSeeStayWhole) {
  const Report rep = matrix(6);
  const FlowsKept kept = flows_kept(rep, parts_naming(rep, "h5"), 29);
  ASSERT_EQ(kept.whole.size(), rep.results.size());
  for (std::size_t i = 0; i < rep.results.size(); ++i) {
    const Record& r = rep.results[i];
    if (!r.figure) {
      EXPECT_TRUE(kept.whole[i]) << "a record that is no flow";
      continue;
    }
    const auto& s = r.figure->subject;
    const bool low = s.host == "h2" || s.dst_host == "h2";
    const bool named = s.host == "h5" || s.dst_host == "h5";
    const bool failed = r.status == Status::failed;
    EXPECT_EQ(kept.whole[i], low || named || failed) << s.host << " -> " << s.dst_host;
  }
  const json& sum = kept.summary;
  EXPECT_EQ(sum.at("flows"), 30);
  EXPECT_EQ(sum.at("whole"), 10 + 8 + 1);  // h2's both ways, h5's less the two with h2, h3 -> h4
  EXPECT_EQ(sum.at("hosts").size(), 6u);
  const json* h2 = side(sum, "h2", "sent");
  ASSERT_NE(h2, nullptr);
  EXPECT_EQ(h2->at("flows"), 5);
  EXPECT_DOUBLE_EQ(h2->at("efficiency").at("median").get<double>(), 0.3);
  EXPECT_EQ(side(sum, "h3", "sent")->at("failed"), 1);
  EXPECT_EQ(side(sum, "h4", "received")->at("failed"), 1);
  EXPECT_EQ(side(sum, "h4", "received")->at("flows"), 5);  // the failed one counted
  EXPECT_DOUBLE_EQ(side(sum, "h0", "received")->at("goodput_Gbps").at("max").get<double>(), 90);
}

// Past the most it keeps whole, the failed flows stay, then the named host's flows, the least efficient
// first; the flows below the threshold of no named host are left to the summary.
TEST(JsonFlowsKept, PastTheMostItKeepsTheFailedAndTheMostTellingFlows) {
  const Report rep = matrix(6);
  const FlowsKept kept = flows_kept(rep, parts_naming(rep, "h5"), 29, 5);
  ASSERT_EQ(kept.whole.size(), rep.results.size());
  std::size_t named_whole = 0;
  for (std::size_t i = 0; i < rep.results.size(); ++i) {
    const Record& r = rep.results[i];
    if (!r.figure) continue;
    const auto& s = r.figure->subject;
    const bool named = s.host == "h5" || s.dst_host == "h5";
    const bool low = s.host == "h2" || s.dst_host == "h2";
    if (r.status == Status::failed) {
      EXPECT_TRUE(kept.whole[i]) << "the failed flow";
    } else if (named && low) {
      EXPECT_TRUE(kept.whole[i]) << s.host << " -> " << s.dst_host << ": the named host's least efficient";
    } else if (!named) {
      EXPECT_FALSE(kept.whole[i]) << s.host << " -> " << s.dst_host;
    }
    named_whole += named && kept.whole[i];
  }
  EXPECT_EQ(named_whole, 5u);
  EXPECT_EQ(kept.summary.at("whole"), 6);
  EXPECT_EQ(kept.summary.at("summarised_of_those"), 10 + 8 - 5);  // h5's ten and h2's eight others, less the five
  // With room for every one, none is left to the summary.
  EXPECT_EQ(flows_kept(rep, parts_naming(rep, "h5"), 29).summary.at("summarised_of_those"), 0);
}

TEST(JsonFlowsKept, ASlowerPairKeepsItsOwnFlowNotEveryFlowOfItsEnds) {
  // h5's pairs SLOWER than the baseline: their ends are every host, yet only those pairs stay whole
  // (with h2's low flows and the failed one); before, every flow of the matrix did.
  const Report rep = matrix(6);
  DocumentParts parts = parts_naming(rep, "");
  auto judgement = std::make_shared<Judgement>();
  judgement->comparison = BaselineComparison{};
  for (int other = 0; other < 5; ++other) {
    Comparison row;
    row.change = Change::slower;
    row.hosts = {"h" + std::to_string(other), "h5"};
    judgement->comparison->rows.push_back(row);
  }
  parts.judgement = judgement;
  const FlowsKept kept = flows_kept(rep, parts, 29);
  ASSERT_EQ(kept.whole.size(), rep.results.size());
  for (std::size_t i = 0; i < rep.results.size(); ++i) {
    const Record& r = rep.results[i];
    if (!r.figure) continue;
    const auto& s = r.figure->subject;
    const bool low = s.host == "h2" || s.dst_host == "h2";
    const bool slower = s.dst_host == "h5";
    EXPECT_EQ(kept.whole[i], low || slower || r.status == Status::failed) << s.host << " -> " << s.dst_host;
  }
  EXPECT_EQ(kept.summary.at("whole"), 10 + 4 + 1);  // h2's both ways, the four into h5 without h2, h3 -> h4
}

TEST(JsonFlowsKept, ReportJsonHoldsTheWholeFlowsAndReadsBackWithItsSummary) {
  const Report rep = matrix(6);
  const FlowsKept kept = flows_kept(rep, parts_naming(rep, ""), 20);
  std::ostringstream out;
  render_json(rep, stored_judgement(rep).verdict, kept, out);
  const ReportText back = read_report_json(out.str());
  ASSERT_TRUE(back.kind == ReportText::Kind::report && back.report) << back.error;
  const Report& read = *back.report;
  EXPECT_EQ(read.results.size(), 10u + 1 + 1);  // h2's flows, h3 -> h4, the topo record
  EXPECT_EQ(read.results[0].kind, RecordKind::tcp_flow);  // the kind its suite stated, not one derived again
  EXPECT_EQ(flows_in_part_text(read).rfind("report.json kept 11 of 30 TCP flows whole", 0), 0u)
      << flows_in_part_text(read);
  // Read back, the summary stays: the flows it summarised are no longer there to count.
  EXPECT_TRUE(flows_kept(read, parts_naming(read, ""), 0).whole.empty());
  EXPECT_EQ(flows_in_part_text(rep), "");
}

namespace {

// The tests attribute of <testsuites>.
std::size_t tests_stated(const std::string& xml) {
  const auto at = xml.find("<testsuites name=\"gpunet-bench\" tests=\"");
  return at == std::string::npos ? 0 : std::stoul(xml.substr(at + 39));
}

}  // namespace

// junit.xml at scale: a testcase for each flow report.json keeps whole, one per host for the rest,
// and the totals count what is written.
TEST(JsonFlowsKept, JunitHasTheKeptFlowsAndOneCasePerHostForTheRest) {
  const Report rep = matrix(6);
  const FlowsKept kept = flows_kept(rep, parts_naming(rep, "h5"), 29);
  std::ostringstream out;
  render_junit(rep, stored_judgement(rep), kept, out);
  const std::string xml = out.str();
  EXPECT_EQ(occurrences(xml, "classname=\"gpunet-bench.tcp.bandwidth\""), 19u);  // the flows kept whole
  EXPECT_EQ(occurrences(xml, "classname=\"gpunet-bench.tcp.flows\""), 6u);       // one per host
  EXPECT_EQ(occurrences(xml, "<failure type=\"failed\""), 1u);                   // h3 -> h4, still a failure
  EXPECT_EQ(occurrences(xml, "<testcase "), tests_stated(xml));
  EXPECT_NE(xml.find("<testsuite name=\"tcp\" tests=\"19\" failures=\"1\""), std::string::npos) << xml.substr(0, 400);
  EXPECT_NE(xml.find("name=\"flows of h4\" time=\"0\">\n      <system-out>sent: 5 flows, goodput min 30 / median 90 / max 90 Gb/s"),
            std::string::npos);
  EXPECT_NE(xml.find("received: 5 flows (1 failed: their own testcases)"), std::string::npos);

  // Every record whole below the limit: no summary suite.
  std::ostringstream whole;
  render_junit(rep, stored_judgement(rep), flows_kept(rep, parts_naming(rep, "h5"), 30), whole);
  EXPECT_EQ(occurrences(whole.str(), "classname=\"gpunet-bench.tcp.bandwidth\""), 30u);
  EXPECT_EQ(whole.str().find("tcp flows summarised"), std::string::npos);

  // Re-rendered from a report.json written in part: its stored summary, one case per host again.
  std::ostringstream json_out;
  render_json(rep, stored_judgement(rep).verdict, kept, json_out);
  const ReportText back = read_report_json(json_out.str());
  ASSERT_TRUE(back.report) << back.error;
  const std::string again = render_junit(*back.report);
  EXPECT_EQ(occurrences(again, "classname=\"gpunet-bench.tcp.bandwidth\""), 19u);
  EXPECT_EQ(occurrences(again, "classname=\"gpunet-bench.tcp.flows\""), 6u);
  EXPECT_EQ(occurrences(again, "<testcase "), tests_stated(again));
}
