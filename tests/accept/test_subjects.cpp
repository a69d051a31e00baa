// A promise judged per subject on hand-made figures: every directed pair, per host, the sentence that
// says what the failures have in common, the culprit, and the one-sentence problems at the top.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/support/spec_names.hpp"
#include "report/judge/culprits.hpp"
#include "report/judge/figure_select.hpp"
#include "report/model/legacy_figure.hpp"
#include "report/judge/networks.hpp"
#include "report/render/section_render.hpp"
#include "report/judge/verdict_subjects.hpp"
#include "report/judge/verdicts.hpp"
#include "report/judge/verdicts_facts.hpp"
#include "report/judge/verdicts_topology.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

FactSubject pair(int a, int b) { return FactSubject{FactSubjectKind::pair, "fc-node" + std::to_string(a), "fc-node" + std::to_string(b), "", ""}; }

// Twelve directed pairs of four hosts; every pair with `slow` at 0.24 Gb/s (ceiling 0.239), the rest 0.95.
std::vector<SubjectValue> twelve(int slow) {
  std::vector<SubjectValue> v;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      if (a != b) {
        const bool bad = a == slow || b == slow;
        v.push_back({pair(a, b), bad ? 0.237 + 0.001 * a : 0.95, bad ? 0.239 : 0.956});
      }
  return v;
}

// A report of TCP matrix flows over `nodes` hosts, the `slow` ones at a quarter of the rate.
Report matrix_of(int nodes, const std::vector<int>& slow) {
  Report rep;
  rep.provenance.argv = {"gpunet-bench", "--suites", "tcp", "--tcp-if", "eth0"};
  const auto is_slow = [&](int n) { return std::find(slow.begin(), slow.end(), n) != slow.end(); };
  for (int a = 0; a < nodes; ++a)
    for (int b = 0; b < nodes; ++b)
      if (a != b) {
        Record r;
        r.suite = "tcp", r.name = "bandwidth", r.variant = "matrix", r.bytes = 100000000 + a * 10 + b, r.ranks = nodes;
        r.host = "fc-node" + std::to_string(b);
        const bool bad = is_slow(a) || is_slow(b);
        r.extra = json{{"src_host", "fc-node" + std::to_string(a)}, {"dst_host", "fc-node" + std::to_string(b)},
                       {"goodput_Gbps", bad ? 0.237 : 0.95}, {"ceiling_Gbps", bad ? 0.239 : 0.956},
                       {"efficiency", bad ? 0.99 : 0.99}, {"link", {{"iface", "eth0"}}}};
        rep.results.push_back(r);
      }
  Record group = rep.results.front();  // a one-to-many flow: not a pairwise test
  group.variant = "one-to-many", group.extra["goodput_Gbps"] = 0.3;
  rep.results.push_back(group);
  rep.schema_version = 1;  // version-1 records: the adapter gives them figures with their stored ceilings
  upgrade_legacy_report(rep);
  return rep;
}

// Four hosts, node `slow` slow (none for -1).
Report matrix_run(int slow) { return matrix_of(4, {slow}); }

Verdict judged_one(const Report& r, const std::string& body) {
  const auto spec = parse_spec(json::parse(R"({"spec_version": 2, )" + body + "}"), "t.json", gpunet::test_support::suite_spec_names());
  const auto v = evaluate(r, spec);
  EXPECT_EQ(v.size(), 1u);
  return v.empty() ? Verdict{} : v.front();
}

}  // namespace

TEST(Subjects, EveryDirectedPairIsJudgedAndTheCommonHostNamed) {
  const auto o = judge_subjects(twelve(3), true, [](double v) { return v < 0.9; });
  EXPECT_EQ(o.total, 12u);
  EXPECT_EQ(o.failed.size(), 6u);
  EXPECT_EQ(o.common_hosts, (std::vector<std::string>{"fc-node3"}));
  ASSERT_EQ(o.culprits.size(), 1u);
  EXPECT_EQ(o.culprits[0].host, "fc-node3");
  EXPECT_EQ(outcome_sentence(o, "below 0.9 Gb/s", "lowest", "Gb/s"),
            "6 of 12 directed pairs below 0.9 Gb/s, all involving fc-node3; lowest fc-node0 -> fc-node3 0.237 Gb/s "
            "(ceiling 0.239 Gb/s)");
  EXPECT_EQ(culprit_sentences(o, "below 0.9 Gb/s", "Gb/s"),
            std::vector<std::string>{"fc-node3: every directed pair with it (6) is below 0.9 Gb/s (worst 0.237 Gb/s of a "
                                     "0.239 Gb/s ceiling: its link is the bottleneck)"});
}

TEST(Subjects, APassSaysHowManyAndTheWorst) {
  const auto o = judge_subjects(twelve(3), true, [](double v) { return v < 0.2; });
  EXPECT_TRUE(o.failed.empty());
  EXPECT_TRUE(o.culprits.empty());
  EXPECT_EQ(outcome_sentence(o, "below 0.2 Gb/s", "lowest", "Gb/s"),
            "all 12 directed pairs meet it; lowest fc-node0 -> fc-node3 0.237 Gb/s (ceiling 0.239 Gb/s)");
}

TEST(Subjects, NoCulpritWithoutOneHostInEveryFailure) {
  // Two unrelated slow pairs: nothing in common, no host blamed.
  auto v = twelve(-1);
  v[0].value = 0.3;   // fc-node0 -> fc-node1
  v[11].value = 0.3;  // fc-node3 -> fc-node2
  const auto o = judge_subjects(v, true, [](double x) { return x < 0.9; });
  EXPECT_EQ(o.failed.size(), 2u);
  EXPECT_TRUE(o.common_hosts.empty());
  EXPECT_TRUE(o.culprits.empty());
  EXPECT_TRUE(culprit_sentences(o, "below", "Gb/s").empty());
  // One slow pair: both ends are in it, neither is blamed alone.
  auto w = twelve(-1);
  w[0].value = 0.3;
  EXPECT_TRUE(judge_subjects(w, true, [](double x) { return x < 0.9; }).culprits.empty());
}

// Several slow hosts have nothing in common: each is named, as one culprit of its own.
TEST(Subjects, EachOfSeveralSlowHostsIsNamed) {
  std::vector<SubjectValue> v;
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b)
      if (a != b) v.push_back({pair(a, b), a == 1 || b == 1 || a == 4 || b == 4 ? 0.3 : 0.95, 0.956});
  auto o = judge_subjects(v, true, [](double x) { return x < 0.9; });
  EXPECT_EQ(o.failed.size(), 18u);
  EXPECT_TRUE(o.common_hosts.empty());
  ASSERT_EQ(o.culprits.size(), 2u);
  EXPECT_EQ(o.culprits[0].host, "fc-node1");
  EXPECT_EQ(o.culprits[1].host, "fc-node4");
  EXPECT_TRUE(o.culprits_explain_all);
  EXPECT_NE(outcome_sentence(o, "below 0.9 Gb/s", "lowest", "Gb/s").find("18 of 30 directed pairs below 0.9 Gb/s, all involving fc-node1 or fc-node4; "),
            std::string::npos);
  const auto said = culprit_sentences(o, "below 0.9 Gb/s", "Gb/s");
  ASSERT_EQ(said.size(), 2u);
  EXPECT_EQ(said[1].rfind("fc-node4: every directed pair with it (10) is below 0.9 Gb/s (worst 0.3 Gb/s", 0), 0u) << said[1];

  // Sampled pairs: fc-node5 met only the slow nodes, and every pair of it failed; it is not named.
  const std::vector<std::pair<int, int>> sampled{{0, 1}, {1, 2}, {1, 3}, {5, 1}, {2, 4}, {4, 3}, {4, 0}, {4, 5}, {0, 2}, {2, 3}, {3, 0}};
  v.clear();
  for (const auto& [a, b] : sampled) v.push_back({pair(a, b), a == 1 || b == 1 || a == 4 || b == 4 ? 0.3 : 0.95, 0.956});
  o = judge_subjects(v, true, [](double x) { return x < 0.9; });
  ASSERT_EQ(o.culprits.size(), 2u);
  EXPECT_EQ(o.culprits[0].host, "fc-node1");
  EXPECT_EQ(o.culprits[1].host, "fc-node4");
  // One more slow pair that neither explains: both are still named, the sentence says "among them".
  v.push_back({pair(2, 0), 0.3, 0.956});
  o = judge_subjects(v, true, [](double x) { return x < 0.9; });
  EXPECT_EQ(o.culprits.size(), 2u);
  EXPECT_FALSE(o.culprits_explain_all);
  EXPECT_NE(outcome_sentence(o, "below 0.9 Gb/s", "lowest", "Gb/s").find(", among them every one with fc-node1 or fc-node4;"),
            std::string::npos);
}

// A contract on a matrix with two slow nodes: both are in What is wrong and bad-nodes.txt, and
// report.json keeps each culprit (and one text for readers of "culprit").
TEST(Culprits, AContractNamesEachSlowNode) {
  auto r = matrix_of(6, {2, 5});
  const auto spec = parse_spec(json::parse(R"({"spec_version": 2,
      "bandwidth": [{"suite": "tcp", "name": "bandwidth", "min": 0.9}]})"), "t.json", gpunet::test_support::suite_spec_names());
  const auto verdicts = evaluate(r, spec);
  ASSERT_EQ(verdicts.size(), 1u);
  ASSERT_EQ(verdicts[0].culprits.size(), 2u);
  EXPECT_EQ(verdicts[0].hosts, (std::vector<std::string>{"fc-node2", "fc-node5"}));
  attach_verdicts(r, spec, verdicts);
  Record load;  // fc-node5's CPUs were busy with other work while tcp ran: said beside the blame
  load.suite = "counters", load.name = "tcp", load.host = "fc-node5";
  load.extra = json{{"host_load", {{"busy", true}, {"summary", "its CPUs were 97 % busy with other work during tcp"}}}};
  r.results.push_back(load);
  const auto w = what_is_wrong(r);
  ASSERT_EQ(w.bad_nodes.size(), 2u);
  EXPECT_EQ(w.bad_nodes[0].host, "fc-node2");
  EXPECT_EQ(w.bad_nodes[0].reason.find("busy"), std::string::npos) << w.bad_nodes[0].reason;
  EXPECT_EQ(w.bad_nodes[1].host, "fc-node5");
  EXPECT_EQ(w.bad_nodes[1].reason.rfind("every directed pair with it (10) is below 0.9 Gb/s", 0), 0u) << w.bad_nodes[1].reason;
  EXPECT_NE(w.bad_nodes[1].reason.find("); its CPUs were 97 % busy with other work during tcp"), std::string::npos) << w.bad_nodes[1].reason;
  const json j = verdicts[0];
  EXPECT_EQ(j.at("culprits").size(), 2u);
  EXPECT_EQ(j.at("culprit"), verdicts[0].culprits[0] + "; " + verdicts[0].culprits[1]);
  EXPECT_EQ(j.get<Verdict>().culprits, verdicts[0].culprits);
  json one = j;  // a report.json written before "culprits": its one text is the one culprit
  one.erase("culprits");
  EXPECT_EQ(one.get<Verdict>().culprits, std::vector<std::string>{j.at("culprit").get<std::string>()});
}

TEST(Subjects, WorstPerSubjectFollowsTheDirection) {
  const std::vector<SubjectValue> v{{pair(0, 1), 0.9, {}}, {pair(0, 1), 0.5, {}}, {pair(1, 0), 0.8, {}}};
  const auto low = worst_per_subject(v, true);
  ASSERT_EQ(low.size(), 2u);
  EXPECT_EQ(low[0].value, 0.5);
  const auto high = worst_per_subject(v, false);
  EXPECT_EQ(high[0].value, 0.9);
  EXPECT_EQ(hosts_in_all({pair(0, 3), pair(3, 1), pair(2, 3)}), (std::vector<std::string>{"fc-node3"}));
}

// Subjects that differ in any part stay apart, each kept at its first place.
TEST(Subjects, WorstPerSubjectKeepsEachSubjectAtItsFirstPlace) {
  const auto gpu = [](const std::string& label) {
    FactSubject s;
    s.kind = FactSubjectKind::gpu, s.host = "fc-node0", s.gpu = label;
    return s;
  };
  FactSubject host = gpu("");
  host.kind = FactSubjectKind::host;
  const std::vector<SubjectValue> v{{gpu("gpu1"), 5, {}}, {pair(2, 1), 7, {}}, {gpu("gpu0"), 6, {}}, {host, 4, {}},
                                    {pair(2, 1), 3, {}},  {gpu("gpu1"), 2, {}}, {pair(1, 2), 9, {}}};
  const auto low = worst_per_subject(v, true);
  ASSERT_EQ(low.size(), 5u);
  EXPECT_EQ(subject_label(low[0].subject), subject_label(gpu("gpu1")));
  EXPECT_EQ(low[0].value, 2);
  EXPECT_EQ(low[1].value, 3);  // fc-node2 -> fc-node1
  EXPECT_EQ(low[2].value, 6);
  EXPECT_EQ(low[3].subject.kind, FactSubjectKind::host);
  EXPECT_EQ(low[4].value, 9);  // the other way
}

TEST(Subjects, TcpPromiseSelectsByTestNotByBytesReceived) {
  const auto r = matrix_run(3);
  auto v = judged_one(r, R"("bandwidth": [{"suite": "tcp", "name": "bandwidth", "min": 0.9}])");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.promise, "bandwidth[0] tcp/bandwidth goodput_Gbps");
  EXPECT_EQ(v.reason, "6 of 12 directed pairs below 0.9 Gb/s, all involving fc-node3; lowest fc-node0 -> fc-node3 0.237 Gb/s "
                      "(ceiling 0.239 Gb/s)");
  EXPECT_EQ(v.hosts, (std::vector<std::string>{"fc-node3"}));
  ASSERT_EQ(v.culprits.size(), 1u);
  EXPECT_EQ(v.culprits[0].rfind("fc-node3: every directed pair with it (6) is below 0.9 Gb/s", 0), 0u) << v.culprits[0];
  // The same contract on a healthy cluster passes; the one-to-many flow is not one of the pairs.
  v = judged_one(matrix_run(-1), R"("bandwidth": [{"suite": "tcp", "name": "bandwidth", "min": 0.9}])");
  EXPECT_EQ(v.status, VerdictStatus::pass) << v.reason;
  EXPECT_EQ(v.reason, "all 12 directed pairs meet it; lowest fc-node0 -> fc-node1 0.95 Gb/s (ceiling 0.956 Gb/s)");
  // A test kind in `name` (version 1) or `test` (version 2) selects it; bytes is ignored for TCP flows.
  v = judged_one(r, R"("bandwidth": [{"suite": "tcp", "name": "bandwidth", "test": "one-to-many", "bytes": 5, "min": 0.2}])");
  EXPECT_EQ(v.status, VerdictStatus::pass) << v.reason;
  EXPECT_NE(v.reason.find("bytes is ignored"), std::string::npos) << v.reason;
}

TEST(Subjects, EfficiencyAgainstThePromisedRateShowsBoth) {
  // Every flow is 99 % of its own path's ceiling: against itself node 3 looks fine; against the
  // promised 1 Gb/s link its pairs reach 24 %.
  const auto r = matrix_run(3);
  auto v = judged_one(r, R"("bandwidth": [{"suite": "tcp", "name": "matrix", "min_efficiency_pct": 90}])");
  EXPECT_EQ(v.status, VerdictStatus::pass) << v.reason;
  v = judged_one(r, R"("link": {"rate_Gbps": 1}, "bandwidth": [{"suite": "tcp", "name": "matrix", "min_efficiency_pct": 90}])");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.limit, ">= 90.0 % of the promised 1.00 Gb/s");
  EXPECT_EQ(v.measured, "23.7 % of the promised 1.00 Gb/s (fc-node0 -> fc-node3: 0.237 Gb/s, 99.0 % of its path's ceiling)");
}

TEST(Subjects, APromiseMadeWithBothMinimaIsJudgedOnTheRate) {
  // A spec gives one of min and min_efficiency_pct; a promise made in code with both, beside a
  // promised link rate, is judged on min alone (and words no efficiency it did not keep).
  auto spec = parse_spec(json::parse(R"({"spec_version": 2, "link": {"rate_Gbps": 1},
      "bandwidth": [{"suite": "tcp", "name": "matrix", "min": 0.9}]})"), "t.json", gpunet::test_support::suite_spec_names());
  spec.bandwidth.at(0).min_efficiency_pct = 90;
  const auto v = evaluate(matrix_run(3), spec);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].status, VerdictStatus::fail);
  EXPECT_EQ(v[0].limit, ">= 0.9 Gb/s");
  EXPECT_EQ(v[0].measured.find("promised"), std::string::npos) << v[0].measured;
}

TEST(Subjects, HomogeneityPerHostNamesTheOutlier) {
  const auto v = judged_one(matrix_run(3), R"("homogeneity": {"figures": [{"suite": "tcp", "name": "matrix", "max_spread_pct": 20}]})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.reason.rfind("1 of 4 hosts more than 20.0 % from the median", 0), 0u) << v.reason;
  EXPECT_EQ(v.hosts, (std::vector<std::string>{"fc-node3"}));
}

TEST(Subjects, AnUnjudgedPromiseMakesTheRunIncomplete) {
  const auto r = matrix_run(-1);
  const auto spec = parse_spec(json::parse(R"({"spec_version": 1,
      "bandwidth": [{"suite": "tcp", "name": "bandwidth", "min": 0.9}, {"suite": "nccl", "name": "allreduce", "min": 100}]})"),
                               "t.json", gpunet::test_support::suite_spec_names());
  const auto v = evaluate(r, spec);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].status, VerdictStatus::skip);
  EXPECT_EQ(v[1].reason, "not judged: the nccl suite was not run (add it: --suites tcp,nccl)");
  EXPECT_EQ(overall_verdict(v), "INCOMPLETE");
  EXPECT_EQ(verdict_exit_code(v), kIncompleteExitCode);
  const auto text = render_verdicts_console(v);
  EXPECT_NE(text.find("1 PASS, 0 FAIL, 1 SKIP: INCOMPLETE (not judged: bandwidth[1])"), std::string::npos) << text;
}

TEST(Culprits, OneSentencePerHostAndNoBlameForItsPartners) {
  auto r = matrix_run(3);
  const auto spec = parse_spec(json::parse(R"({"spec_version": 1,
      "bandwidth": [{"suite": "tcp", "name": "bandwidth", "min": 0.9}]})"), "t.json", gpunet::test_support::suite_spec_names());
  attach_verdicts(r, spec, evaluate(r, spec));
  Record finding;
  finding.suite = "tcp", finding.name = "finding", finding.status = Status::failed;
  finding.reason = "host fc-node3: every pair with it is slow (6 directions, confirmed when re-tested alone)";
  finding.extra = json{{"finding", {{"subject", "host"}, {"host", "fc-node3"}}}};
  Record pair_finding = finding;
  pair_finding.reason = "pair fc-node1 -> fc-node3: slow";
  pair_finding.extra = json{{"finding", {{"subject", "pair"}, {"src_host", "fc-node1"}, {"dst_host", "fc-node3"}}}};
  r.results.push_back(finding);
  r.results.push_back(pair_finding);
  r.results.push_back(finding);  // a duplicate
  const auto all = what_is_wrong(r).sentences;
  ASSERT_EQ(all.size(), 1u) << all.size();
  EXPECT_EQ(all[0].rfind("fc-node3: every directed pair with it (6) is below 0.9 Gb/s", 0), 0u) << all[0];
  EXPECT_NE(all[0].find("; every pair with it is slow (6 directions"), std::string::npos) << all[0];
  EXPECT_EQ(section_console(problems_section(what_is_wrong(r))).rfind("# What is wrong:\n#   fc-node3: ", 0), 0u);
  EXPECT_EQ(section_markdown(problems_section(what_is_wrong(Report{}))), "");
}

// A SLOWER figure of one pair whose ends are fine in every other figure cannot say which end is at
// fault: "What is wrong" names both, bad-nodes.txt neither. A host in most SLOWER figures is blamed.
TEST(Culprits, OnePairsSlowerFigureBlamesNeitherEnd) {
  const auto slower = [](const std::string& key, std::vector<std::string> hosts, double pct) {
    Comparison c;
    c.key = key, c.change = Change::slower, c.hosts = std::move(hosts), c.change_pct = pct;
    return c;
  };
  BaselineComparison cmp;
  cmp.rows = {slower("tcp/bandwidth/matrix goodput fc-node3 -> fc-node0", {"fc-node3", "fc-node0"}, -50),
              slower("tcp/bandwidth/matrix goodput fc-node1 -> fc-node3", {"fc-node1", "fc-node3"}, -49),
              slower("tcp/latency/ping-pong/14B p50 fc-node1 <-> fc-node2", {"fc-node1", "fc-node2"}, 105)};
  Report r;
  attach_comparison(r, "base.json", CompareRule{}, cmp);
  const auto w = what_is_wrong(r);
  ASSERT_EQ(w.sentences.size(), 2u);
  EXPECT_EQ(w.sentences[0].rfind("fc-node3: 2 figures SLOWER than the baseline", 0), 0u) << w.sentences[0];
  EXPECT_EQ(w.sentences[1], "fc-node1 and fc-node2: 1 figure SLOWER than the baseline (worst tcp/latency/ping-pong/14B p50 "
                            "fc-node1 <-> fc-node2 +105 %); nothing else singles out either end: the path between them, "
                            "or either end");
  ASSERT_EQ(w.bad_nodes.size(), 1u);
  EXPECT_EQ(w.bad_nodes[0].host, "fc-node3");

  // When a finding already names one end, that end takes the pair's figure.
  Record finding;
  finding.suite = "tcp", finding.name = "finding", finding.status = Status::failed;
  finding.reason = "host fc-node2: every pair with it is slow (2 directions, confirmed when re-tested alone)";
  finding.extra = json{{"finding", {{"subject", "host"}, {"host", "fc-node2"}}}};
  r.results.push_back(finding);
  const auto named = what_is_wrong(r);
  ASSERT_EQ(named.bad_nodes.size(), 2u);
  EXPECT_EQ(named.bad_nodes[0].host, "fc-node2");
  EXPECT_NE(named.bad_nodes[0].reason.find("1 figure SLOWER than the baseline"), std::string::npos) << named.bad_nodes[0].reason;
  for (const auto& s : named.sentences) EXPECT_EQ(s.find("nothing else singles out"), std::string::npos) << s;
}

TEST(Subjects, ANicSpeedThatCannotBeReadIsNotJudgedNotFailed) {
  NodeFacts a{"fc-node0", {}, {NicFact{"eth0", {"eth0"}, "0000:00:03.0", std::nullopt, std::nullopt, ""}}, {}, {}};
  NodeFacts b{"fc-node1", {}, {NicFact{"eth0", {"eth0"}, "0000:00:03.0", 1.0, std::nullopt, ""}}, {}, {}};
  NicSpec speed;
  speed.speed_Gbps = 1;
  auto v = check_nic({a, b}, speed);
  EXPECT_EQ(v.status, VerdictStatus::skip) << v.reason;
  EXPECT_EQ(v.reason, "not judged: the speed of fc-node0 eth0 cannot be read");
  NicSpec count = speed;
  count.count = 1;
  EXPECT_EQ(check_nic({a, b}, count).status, VerdictStatus::skip);
  b.nics[0].speed_Gbps = 0.25;  // one read as slow still fails
  EXPECT_EQ(check_nic({a, b}, speed).status, VerdictStatus::fail);
}

TEST(Subjects, ANicSpeedPromiseJudgesTheInterfaceThatCarriedTheTraffic) {
  // The topology's only NIC is a PCI device whose speed cannot be read; the traffic went over eth0, a
  // netdev of its own (a veth in the fakecluster) whose speed can.
  const NicFact device{"0000:00:03.0", {"0000:00:03.0"}, "0000:00:03.0", std::nullopt, std::nullopt, ""};
  const NicFact eth0{"eth0", {"eth0"}, "", 10.0, std::nullopt, ""};
  const NodeFacts a{"fc-node0", {}, {device}, {}, {eth0}};
  const NodeFacts b{"fc-node1", {}, {device}, {}, {eth0}};
  NicSpec speed;
  speed.speed_Gbps = 1;
  EXPECT_EQ(check_nic({a, b}, speed).status, VerdictStatus::skip);  // no record of traffic: the inventory
  const std::vector<CarrierIface> carried{{"fc-node0", "eth0"}, {"fc-node1", "eth0"}, {"fc-node0", "eth0"}};
  auto v = check_nic({a, b}, speed, carried);
  EXPECT_EQ(v.status, VerdictStatus::pass) << v.reason;
  EXPECT_EQ(v.reason.rfind("the interfaces that carried the run's traffic (fc-node0 eth0, fc-node1 eth0): ", 0), 0u) << v.reason;
  NodeFacts slow = b;
  slow.netdevs[0].speed_Gbps = 0.5;
  v = check_nic({a, slow}, speed, carried);
  EXPECT_EQ(v.status, VerdictStatus::fail) << v.reason;
  EXPECT_NE(v.reason.find("fc-node1 eth0 at 0.5"), std::string::npos) << v.reason;
  NicSpec matched = speed;  // a match names the NICs to judge: the inventory again
  matched.match = "0000";
  EXPECT_EQ(check_nic({a, b}, matched, carried).status, VerdictStatus::skip);
}

TEST(Networks, AnInterfaceNobodyChoseIsAWarningThatSaysHowToChoose) {
  auto r = matrix_run(-1);
  EXPECT_FALSE(network_warning(r));
  std::string md = section_markdown(networks_section(r));
  md.erase(std::unique(md.begin(), md.end(), [](char a, char b) { return a == ' ' && b == ' '; }), md.end());  // no padding
  EXPECT_NE(md.find("| fc-node0 | eth0 | tcp: the chosen data network (--tcp-if eth0) | 4 |"), std::string::npos) << md;
  r.provenance.argv = {"gpunet-bench", "--suites", "tcp"};
  r.topology = json{{"fc-node0", {{"default_route_interfaces", {"eth0"}}}}};
  const auto w = network_warning(r);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->status, VerdictStatus::warn);
  EXPECT_NE(w->reason.find("chosen by default (no --tcp-if)"), std::string::npos) << w->reason;
  EXPECT_NE(w->reason.find("here the default route"), std::string::npos) << w->reason;
  EXPECT_NE(w->reason.find("choose it with --tcp-if NAME or CIDR"), std::string::npos) << w->reason;
  const auto spec = parse_spec(json::parse(R"({"spec_version": 1, "bandwidth": [{"suite": "tcp", "name": "bandwidth", "min": 0.9}]})"), "t.json", gpunet::test_support::suite_spec_names());
  const auto v = evaluate(r, spec);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].promise, "network");
  EXPECT_EQ(overall_verdict(v), "PASS with warnings");
  EXPECT_EQ(verdict_exit_code(v), 0);
  EXPECT_NE(section_console(problems_section(what_is_wrong(r))).find("choose it with --tcp-if"), std::string::npos);
}
