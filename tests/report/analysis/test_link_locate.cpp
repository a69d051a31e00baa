// Localising slow pairs to the smallest set of links over synthetic pair sets (report/analysis/link_locate.hpp),
// and what "What is wrong" (report/judge/culprits.hpp) says from a report with a matrix and a fabric.
#include <gtest/gtest.h>

#include <functional>

#include "report/judge/culprits.hpp"
#include "report/analysis/fabric_view.hpp"
#include "report/analysis/link_locate.hpp"
#include "report/analysis/link_sentences.hpp"
#include "report/analysis/path_ceilings.hpp"
#include "report/render/section_render.hpp"

namespace gpunet::report {
namespace {

std::string h(int i) { return "n" + std::to_string(i); }

// `racks` leaves of `per` hosts each under "spine"; host i in leaf i / per.
std::vector<FabricLeaf> tree(int racks, int per) {
  std::vector<FabricLeaf> out;
  for (int k = 0; k < racks; ++k) {
    FabricLeaf l{"leaf" + std::to_string(k), "spine", {}};
    for (int j = 0; j < per; ++j) l.hosts.push_back(h(k * per + j));
    out.push_back(l);
  }
  return out;
}

// Every directed pair of n hosts at `rate(src, dst)` Gb/s.
std::vector<PairGoodput> all_pairs(int n, const std::function<double(int, int)>& rate) {
  std::vector<PairGoodput> out;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b) out.push_back({h(a), h(b), rate(a, b)});
  return out;
}

// The culprits' names, each culprit's links joined with " or ".
std::vector<std::string> named(const LinkLocation& loc) {
  std::vector<std::string> out;
  for (const auto& c : loc.culprits) {
    std::string s;
    for (const auto& l : c.links) s += (s.empty() ? "" : " or ") + link_name(l);
    out.push_back(s);
  }
  return out;
}

using Names = std::vector<std::string>;

TEST(LinkLocate, OneSlowUplinkOfFourIsNamedAlone) {
  const auto in1 = [](int i) { return i / 2 == 1; };
  const auto loc = locate_slow_links(all_pairs(8, [&](int a, int b) { return in1(a) != in1(b) ? 0.48 : 0.95; }), tree(4, 2), 0.8);
  ASSERT_EQ(loc.outcome, LocateOutcome::located) << loc.why;
  EXPECT_EQ(named(loc), Names{"leaf1 ↔ spine"});
  EXPECT_EQ(loc.culprits[0].pairs.size(), 24u);
  EXPECT_EQ(fabric_explained(loc).size(), 24u);
  EXPECT_EQ(fabric_culprit_sentence(loc.culprits[0], loc),
            "leaf1 ↔ spine: 24 of 24 pairs crossing it at 0.48 Gb/s (0.51 of the best pair), pairs within leaf1 at 0.95 Gb/s; "
            "the 32 pairs through no named link at 1.00 or better: suspect the uplink, not the nodes");
}

TEST(LinkLocate, TwoRacksNameBothUplinksBecauseEveryPairCrossesBoth) {
  const auto loc = locate_slow_links(all_pairs(8, [](int a, int b) { return a / 4 != b / 4 ? 0.3 : 0.95; }), tree(2, 4), 0.8);
  ASSERT_EQ(loc.outcome, LocateOutcome::located) << loc.why;
  EXPECT_EQ(named(loc), Names{"leaf0 ↔ spine or leaf1 ↔ spine"});
  EXPECT_EQ(loc.culprits[0].within, 24);
  const auto text = fabric_culprit_sentence(loc.culprits[0], loc);
  EXPECT_EQ(text.rfind("leaf0 ↔ spine or leaf1 ↔ spine: 32 of 32 pairs crossing them at 0.3 Gb/s (0.32 of the best pair), "
                       "pairs within leaf0 and leaf1 at 0.95 Gb/s; the 24 pairs through no named link at 1.00 or better: "
                       "suspect an uplink, not the nodes (",
                       0),
            0u)
      << text;
}

TEST(LinkLocate, OneWaySlownessNamesTheDirection) {
  // Only what leaves leaf2 is slow: leaf2 -> spine.
  const auto loc = locate_slow_links(all_pairs(6, [](int a, int b) { return a / 2 == 2 && b / 2 != 2 ? 0.2 : 0.95; }), tree(3, 2), 0.8);
  EXPECT_EQ(named(loc), Names{"leaf2 → spine"});
  EXPECT_EQ(loc.culprits.at(0).pairs.size(), 8u);
}

TEST(LinkLocate, NothingWrongNamesNothing) {
  EXPECT_EQ(locate_slow_links(all_pairs(8, [](int, int) { return 0.95; }), tree(2, 4), 0.8).outcome, LocateOutcome::nothing_slow);
  EXPECT_EQ(locate_slow_links({}, tree(2, 4), 0.8).outcome, LocateOutcome::nothing_slow);
  EXPECT_EQ(locate_slow_links(all_pairs(4, [](int a, int) { return a == 3 ? 0.2 : 0.95; }), {}, 0.8).outcome,
            LocateOutcome::nothing_slow)
      << "no fabric: no pair is placed";
}

TEST(LinkLocate, OneBadNicInARackIsTheNodesNic) {
  const auto pairs = all_pairs(8, [](int a, int b) { return a == 5 || b == 5 ? 0.2 : 0.95; });
  for (const auto& leaves : {tree(2, 4), tree(4, 2)}) {
    const auto loc = locate_slow_links(pairs, leaves, 0.8);
    EXPECT_EQ(named(loc), Names{"n5's NIC"});
    EXPECT_TRUE(fabric_explained(loc).empty());
    EXPECT_EQ(nic_culprit_sentence(loc.culprits.at(0), loc),
              "its NIC: 14 of 14 pairs to and from it at 0.2 Gb/s (0.21 of the best pair); the 42 pairs through no named "
              "link at 1.00 or better: the node, not the fabric");
  }
}

TEST(LinkLocate, TwoBadNicsInDifferentRacksAreTheTwoNodesNotAnUplink) {
  const auto pairs = all_pairs(8, [](int a, int b) { return a == 1 || b == 1 || a == 6 || b == 6 ? 0.2 : 0.95; });
  const auto loc = locate_slow_links(pairs, tree(4, 2), 0.8);
  ASSERT_EQ(loc.outcome, LocateOutcome::located) << loc.why;
  EXPECT_EQ(named(loc), (Names{"n1's NIC", "n6's NIC"}));
  EXPECT_TRUE(fabric_explained(loc).empty());
}

TEST(LinkLocate, ABadUplinkPlusABadNicNamesBoth) {
  // leaf1's uplink slow and n7's NIC slow: neither alone explains the slow pairs, both together do.
  const auto pairs = all_pairs(8, [](int a, int b) {
    const bool cross1 = (a / 2 == 1) != (b / 2 == 1);
    return cross1 || a == 7 || b == 7 ? 0.3 : 0.95;
  });
  const auto loc = locate_slow_links(pairs, tree(4, 2), 0.8);
  ASSERT_EQ(loc.outcome, LocateOutcome::located) << loc.why;
  EXPECT_EQ(named(loc), (Names{"leaf1 ↔ spine", "n7's NIC"}));
  EXPECT_EQ(fabric_explained(loc).size(), 24u) << "only the uplink's pairs are the fabric's";
  // The same in two racks of four: both uplinks (they cannot be told apart) and the NIC.
  const auto two = locate_slow_links(all_pairs(8, [](int a, int b) { return a / 4 != b / 4 || a == 7 || b == 7 ? 0.3 : 0.95; }),
                                     tree(2, 4), 0.8);
  EXPECT_EQ(named(two), (Names{"leaf0 ↔ spine or leaf1 ↔ spine", "n7's NIC"}));
}

TEST(LinkLocate, ABadSpineIsTheSpineNotEveryUplink) {
  // Every pair between racks slow, in each of three racks: the switch above them, not three uplinks.
  const auto loc = locate_slow_links(all_pairs(9, [](int a, int b) { return a / 3 != b / 3 ? 0.4 : 0.95; }), tree(3, 3), 0.8);
  ASSERT_EQ(loc.outcome, LocateOutcome::located) << loc.why;
  EXPECT_EQ(named(loc), Names{"switch spine"});
  EXPECT_EQ(loc.culprits[0].within, 18);
  EXPECT_NE(fabric_culprit_sentence(loc.culprits[0], loc).find("54 of 54 pairs between its leaves at 0.4 Gb/s"), std::string::npos);
  // With two racks the spine carries the same pairs as either uplink: the uplinks' sentence says so.
  const auto two = locate_slow_links(all_pairs(8, [](int a, int b) { return a / 4 != b / 4 ? 0.4 : 0.95; }), tree(2, 4), 0.8);
  EXPECT_EQ(named(two), Names{"leaf0 ↔ spine or leaf1 ↔ spine"});
  EXPECT_NE(fabric_culprit_sentence(two.culprits.at(0), two).find("and the switch above them"), std::string::npos);
}

TEST(LinkLocate, TooFewPairsToTell) {
  // leaf1 holds one host: its NIC carries the same pairs as its uplink, so nothing is named.
  const std::vector<FabricLeaf> one_host{{"leaf0", "spine", {h(0), h(1), h(2)}}, {"leaf1", "spine", {h(3)}}};
  const auto loc = locate_slow_links(all_pairs(4, [](int a, int b) { return a == 3 || b == 3 ? 0.2 : 0.95; }), one_host, 0.8);
  EXPECT_EQ(loc.outcome, LocateOutcome::undecided);
  EXPECT_TRUE(loc.culprits.empty());
  EXPECT_EQ(loc.why.rfind("too few pairs to tell: ", 0), 0u) << loc.why;
  EXPECT_NE(loc.why.find("n3's NIC"), std::string::npos) << loc.why;
  // A single pair through a link is never enough.
  const auto single = locate_slow_links({{h(0), h(1), 0.95}, {h(0), h(2), 0.95}, {h(1), h(2), 0.2}},
                                        {{"leaf0", "spine", {h(0), h(1)}}, {"leaf1", "spine", {h(2)}}}, 0.8);
  EXPECT_EQ(single.outcome, LocateOutcome::undecided);
  EXPECT_TRUE(single.culprits.empty());
  // No pair measured inside the leaf: its nodes' NICs would explain the same pairs as its uplink.
  std::vector<PairGoodput> across;
  for (int a = 0; a < 2; ++a)
    for (int b = 2; b < 6; ++b) across.insert(across.end(), {{h(a), h(b), 0.3}, {h(b), h(a), 0.3}});
  across.push_back({h(2), h(3), 0.95});
  const auto unseen = locate_slow_links(across, tree(3, 2), 0.8);
  EXPECT_EQ(unseen.outcome, LocateOutcome::undecided);
  EXPECT_NE(unseen.why.find("no pair inside leaf0 is measured fine"), std::string::npos) << unseen.why;
}

TEST(LinkLocate, AStraySlowPairDoesNotHideTheUplink) {
  // Every pair between the racks is slow, and so is one pair inside leaf0 (a busy host, or a cable):
  // the uplinks explain the 32, the stray pair is left to the pair findings.
  const auto rate = [](int a, int b) { return a / 4 != b / 4 ? 0.3 : a == 1 && b == 2 ? 0.4 : 0.95; };
  const auto loc = locate_slow_links(all_pairs(8, rate), tree(2, 4), 0.8);
  ASSERT_EQ(loc.outcome, LocateOutcome::located) << loc.why;
  EXPECT_EQ(named(loc), Names{"leaf0 ↔ spine or leaf1 ↔ spine"});
  EXPECT_EQ(loc.culprits[0].pairs.size(), 32u);
  EXPECT_EQ(loc.unexplained, (std::vector<HostPair>{{h(1), h(2)}}));
  EXPECT_EQ(fabric_explained(loc).count({h(1), h(2)}), 0u) << "the stray pair keeps its own finding";
  const auto sentence = fabric_culprit_sentence(loc.culprits[0], loc);
  EXPECT_NE(sentence.find("or better; 1 slow pair that no link explains (n1 → n2): suspect an uplink"), std::string::npos)
      << sentence;
  // Past three, the others are counted.
  const auto five = locate_slow_links(all_pairs(8, [](int a, int b) {
                                        return a / 4 != b / 4 ? 0.3 : b == a + 1 && a != 3 && a != 5 ? 0.4 : 0.95;
                                      }),
                                      tree(2, 4), 0.8);
  ASSERT_EQ(five.outcome, LocateOutcome::located) << five.why;
  EXPECT_NE(fabric_culprit_sentence(five.culprits[0], five).find("; 5 slow pairs that no link explains (n0 → n1, n1 → n2, n2 → n3 and 2 more): "),
            std::string::npos)
      << fabric_culprit_sentence(five.culprits[0], five);
  // Without the uplink, the slow cable between n1 and n2 (both ways) is all there is: nothing is named.
  const auto cable = locate_slow_links(all_pairs(8, [](int a, int b) { return (a == 1 && b == 2) || (a == 2 && b == 1) ? 0.4 : 0.95; }),
                                       tree(2, 4), 0.8);
  EXPECT_EQ(cable.outcome, LocateOutcome::undecided);
  EXPECT_TRUE(cable.culprits.empty());
  EXPECT_NE(cable.why.find("no set of 4 links or fewer"), std::string::npos) << cable.why;
}

TEST(LinkLocate, FourLinksAreNamedAndFiveAreTooMany) {
  // Slow NICs in three racks of four: four are named; with a fifth, no four links carry the slow pairs.
  const auto slow_nics = [](std::vector<int> slow) {
    return all_pairs(12, [slow](int a, int b) {
      const auto in = [&](int x) { return std::find(slow.begin(), slow.end(), x) != slow.end(); };
      return in(a) || in(b) ? 0.3 : 0.95;
    });
  };
  const auto four = locate_slow_links(slow_nics({0, 1, 4, 8}), tree(3, 4), 0.8);
  ASSERT_EQ(four.outcome, LocateOutcome::located) << four.why;
  EXPECT_EQ(named(four), (Names{"n0's NIC", "n1's NIC", "n4's NIC", "n8's NIC"}));
  const auto five = locate_slow_links(slow_nics({0, 1, 4, 5, 8}), tree(3, 4), 0.8);
  EXPECT_EQ(five.outcome, LocateOutcome::undecided);
  EXPECT_EQ(five.why, "no set of 4 links or fewer carries exactly the 90 slow pairs");
}

TEST(LinkLocate, AFastPairAgainstItsOwnCeilingIsNotSlow) {
  // n3 has a 10 Gb/s NIC, the others 25 Gb/s: its pairs at 9.4 are at their ceiling, not slow.
  auto pairs = all_pairs(6, [](int a, int b) { return a == 3 || b == 3 ? 9.4 : 23.5; });
  for (auto& p : pairs) p.ceiling_gbps = p.src == h(3) || p.dst == h(3) ? 9.4 : 23.5;
  EXPECT_EQ(locate_slow_links(pairs, tree(3, 2), 0.8).outcome, LocateOutcome::nothing_slow);
  for (auto& p : pairs) p.ceiling_gbps = 0;  // against the best pair, n3's NIC looks slow
  EXPECT_EQ(named(locate_slow_links(pairs, tree(3, 2), 0.8)), Names{"n3's NIC"});
}

// A report as the tcp suite leaves it: the matrix record at rate(a, b), a pair finding per slow pair
// between the racks, a fabric of two racks of four.
Report matrix_report(bool with_fabric, const std::function<double(int, int)>& rate) {
  Report rep;
  Record m;
  m.suite = "tcp";
  m.name = "matrix";
  std::vector<std::string> hosts;
  for (int i = 0; i < 8; ++i) hosts.push_back(h(i));
  gpunet::json g = gpunet::json::array();
  for (int a = 0; a < 8; ++a) {
    gpunet::json row = gpunet::json::array();
    for (int b = 0; b < 8; ++b) row.push_back(a == b ? gpunet::json(nullptr) : gpunet::json(rate(a, b)));
    g.push_back(row);
  }
  m.extra = {{"hosts", hosts}, {"goodput_Gbps", g}, {"suspect_fraction", 0.8}, {"retests", gpunet::json::array()}};
  rep.results.push_back(m);
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      if (a / 4 == b / 4) continue;
      Record f;
      f.suite = "tcp";
      f.name = "finding";
      f.status = Status::failed;
      f.reason = "pair " + h(a) + " → " + h(b) + " is slow";
      f.extra["finding"] = {{"subject", "pair"}, {"src_host", h(a)}, {"dst_host", h(b)}};
      rep.results.push_back(f);
    }
  if (with_fabric)
    rep.extra["fabric"] = {{"file", "t.conf"},
                           {"switches",
                            {{{"name", "leaf0"}, {"nodes", {h(0), h(1), h(2), h(3)}}, {"switches", gpunet::json::array()}},
                             {{"name", "leaf1"}, {"nodes", {h(4), h(5), h(6), h(7)}}, {"switches", gpunet::json::array()}},
                             {{"name", "spine"}, {"nodes", gpunet::json::array()}, {"switches", {"leaf0", "leaf1"}}}}}};
  return rep;
}

double racks_slow(int a, int b) { return a / 4 != b / 4 ? 0.05 : 0.095; }

TEST(LinkLocate, EachMatrixPairIsJudgedAgainstItsOwnLinksCeiling) {
  // n0 and n1 on 25 Gb/s links, n2 on 10 Gb/s, n3's link unknown: the ceilings of the pairs come from
  // both ends' link facts (one flow each way), worked out once per pair of kinds of link.
  auto rep = matrix_report(true, [](int, int) { return 1.0; });
  const auto link = [](int mbps) {
    return gpunet::json{{"kind", "ethernet"}, {"iface", "eth0"}, {"speed_Mbps", mbps}, {"mtu", 1500}, {"loopback", false}};
  };
  const std::vector<gpunet::json> links{link(25000), link(25000), link(10000)};
  for (int a = 0; a < 3; ++a) {
    Record f;
    f.suite = "tcp";
    f.name = "bandwidth";
    f.kind = RecordKind::tcp_flow;
    f.extra = {{"src_host", h(a)}, {"dst_host", h((a + 1) % 3)}, {"link", links[a]}, {"dst_link", links[(a + 1) % 3]}};
    rep.results.push_back(f);
  }
  const auto ceiling = [&](int a, int b) {
    const Ceiling c = tcp_flow_ceiling(links[a], links[b], 1, 1);
    EXPECT_TRUE(c.known);
    return c.value;
  };
  EXPECT_GT(ceiling(0, 1), ceiling(0, 2));
  int checked = 0;
  for (const auto& p : matrix_goodputs(rep)) {
    const int a = p.src[1] - '0', b = p.dst[1] - '0';
    const double want = a == 3 || b == 3 || a > 3 || b > 3 ? 0 : ceiling(a, b);
    EXPECT_DOUBLE_EQ(p.ceiling_gbps, want) << p.src << " -> " << p.dst;
    ++checked;
  }
  EXPECT_EQ(checked, 56);
}

TEST(LinkLocate, WhatIsWrongNamesTheUplinkInsteadOfThePairs) {
  const auto lines = what_is_wrong(matrix_report(true, racks_slow)).sentences;
  ASSERT_EQ(lines.size(), 1u) << lines.size();
  EXPECT_EQ(lines[0].rfind("leaf0 ↔ spine or leaf1 ↔ spine: 32 of 32 pairs crossing them at 0.05 Gb/s", 0), 0u) << lines[0];
  const DocSection problems = problems_section(what_is_wrong(matrix_report(true, racks_slow)));
  EXPECT_NE(section_markdown(problems).find("leaf1 ↔ spine"), std::string::npos);
  EXPECT_NE(section_html(problems, 0.8).find("leaf1 ↔ spine"), std::string::npos);
  EXPECT_TRUE(what_is_wrong(matrix_report(true, racks_slow)).bad_nodes.empty()) << "no node is blamed for a slow uplink";
}

TEST(LinkLocate, WhatIsWrongNamesTheUplinkAndTheNodeOfASlowNic) {
  const auto rep = matrix_report(true, [](int a, int b) { return a == 7 || b == 7 ? 0.02 : racks_slow(a, b); });
  const auto lines = what_is_wrong(rep).sentences;
  ASSERT_EQ(lines.size(), 2u) << lines.size();
  EXPECT_EQ(lines[0].rfind("n7: its NIC: 14 of 14 pairs to and from it at 0.02 Gb/s", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("leaf0 ↔ spine or leaf1 ↔ spine: 32 of 32 pairs crossing them", 0), 0u) << lines[1];
  const auto nodes = what_is_wrong(rep).bad_nodes;
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].host, "n7");
}

TEST(LinkLocate, WhatIsWrongNamesTheUplinkBesideAStrayPair) {
  // One pair inside leaf0 slow as well, with its own finding: the uplinks and that pair, no node.
  auto rep = matrix_report(true, [](int a, int b) { return a == 1 && b == 2 ? 0.04 : racks_slow(a, b); });
  Record f;
  f.suite = "tcp";
  f.name = "finding";
  f.status = Status::failed;
  f.reason = "pair n1 → n2 is slow";
  f.extra["finding"] = {{"subject", "pair"}, {"src_host", h(1)}, {"dst_host", h(2)}};
  rep.results.push_back(f);
  const auto wrong = what_is_wrong(rep);
  ASSERT_EQ(wrong.sentences.size(), 2u) << wrong.sentences.size();
  EXPECT_EQ(wrong.sentences[0].rfind("leaf0 ↔ spine or leaf1 ↔ spine: 32 of 32 pairs crossing them at 0.05 Gb/s", 0), 0u) << wrong.sentences[0];
  EXPECT_NE(wrong.sentences[0].find("; 1 slow pair that no link explains (n1 → n2): "), std::string::npos) << wrong.sentences[0];
  EXPECT_EQ(wrong.sentences[1], "pair n1 → n2 is slow");
  EXPECT_TRUE(wrong.bad_nodes.empty());
}

TEST(LinkLocate, WithoutAFabricOneLineSaysWhatItWouldTell) {
  const auto lines = what_is_wrong(matrix_report(false, racks_slow)).sentences;
  ASSERT_EQ(lines.size(), 33u);
  EXPECT_EQ(lines[0],
            "32 slow pairs name no single node; with --fabric FILE (Slurm's topology.conf) the report could tell "
            "whether they share a switch uplink");
}

}  // namespace
}  // namespace gpunet::report
