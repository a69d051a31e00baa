// Localising a slow uplink over synthetic pair sets (report/analysis/uplink_locate.hpp), and the finding it
// gives in "What is wrong" (report/judge/culprits.hpp) from a report with a matrix and a fabric.
#include <gtest/gtest.h>

#include <set>

#include "report/judge/culprits.hpp"
#include "report/analysis/fabric_view.hpp"
#include "report/analysis/uplink_locate.hpp"

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
template <class F>
std::vector<PairGoodput> all_pairs(int n, F rate) {
  std::vector<PairGoodput> out;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b) out.push_back({h(a), h(b), rate(a, b)});
  return out;
}

TEST(UplinkLocate, OneSlowUplinkOfFourIsNamedAlone) {
  const auto leaves = tree(4, 2);  // leaf1 holds n2, n3
  const auto in1 = [](int i) { return i / 2 == 1; };
  const auto pairs = all_pairs(8, [&](int a, int b) { return in1(a) != in1(b) ? 0.48 : 0.95; });
  const auto s = locate_slow_uplink(pairs, leaves, 0.8);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->links.size(), 1u);
  EXPECT_EQ(uplink_name(s->links[0]), "leaf1 ↔ spine");
  EXPECT_EQ(s->slow, 24);
  EXPECT_EQ(s->explained.size(), 24u);
  EXPECT_EQ(uplink_sentence(*s),
            "leaf1 ↔ spine: 24 of 24 pairs crossing it at 0.48 Gb/s, pairs within leaf1 at 0.95 Gb/s: suspect the "
            "uplink, not the nodes");
}

TEST(UplinkLocate, TwoRacksNameBothUplinksBecauseEveryPairCrossesBoth) {
  const auto pairs = all_pairs(8, [](int a, int b) { return a / 4 != b / 4 ? 0.3 : 0.95; });
  const auto s = locate_slow_uplink(pairs, tree(2, 4), 0.8);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->links.size(), 2u);
  EXPECT_EQ(s->slow, 32);
  EXPECT_EQ(s->within, 24);
  const auto text = uplink_sentence(*s);
  EXPECT_EQ(text.rfind("leaf0 ↔ spine or leaf1 ↔ spine: 32 of 32 pairs crossing them at 0.3 Gb/s, pairs within "
                       "leaf0 and leaf1 at 0.95 Gb/s: suspect an uplink, not the nodes (",
                       0),
            0u)
      << text;
}

TEST(UplinkLocate, OneWaySlownessNamesTheDirection) {
  // Only what leaves leaf2 is slow: leaf2 -> spine.
  const auto pairs = all_pairs(6, [](int a, int b) { return a / 2 == 2 && b / 2 != 2 ? 0.2 : 0.95; });
  const auto s = locate_slow_uplink(pairs, tree(3, 2), 0.8);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->links.size(), 1u);
  EXPECT_EQ(uplink_name(s->links[0]), "leaf2 → spine");
  EXPECT_EQ(s->slow, 8);
}

TEST(UplinkLocate, NothingWrongNamesNothing) {
  EXPECT_FALSE(locate_slow_uplink(all_pairs(8, [](int, int) { return 0.95; }), tree(2, 4), 0.8));
  EXPECT_FALSE(locate_slow_uplink({}, tree(2, 4), 0.8));
  EXPECT_FALSE(locate_slow_uplink(all_pairs(4, [](int, int) { return 0.95; }), {}, 0.8)) << "no fabric";
}

TEST(UplinkLocate, OneBadNicInARackIsLeftToTheNodeFinding) {
  const auto pairs = all_pairs(8, [](int a, int b) { return a == 5 || b == 5 ? 0.2 : 0.95; });
  EXPECT_FALSE(locate_slow_uplink(pairs, tree(2, 4), 0.8));
  EXPECT_FALSE(locate_slow_uplink(pairs, tree(4, 2), 0.8));
}

TEST(UplinkLocate, TwoBadNicsInDifferentRacksAreNotAnUplink) {
  // n1 (leaf0) and n6 (leaf3) slow with everyone: no leaf's crossing set is that set.
  const auto pairs = all_pairs(8, [](int a, int b) { return a == 1 || b == 1 || a == 6 || b == 6 ? 0.2 : 0.95; });
  EXPECT_FALSE(locate_slow_uplink(pairs, tree(4, 2), 0.8));
}

TEST(UplinkLocate, ABadUplinkPlusABadNicIsNotClaimedAsTheUplinkAlone) {
  // leaf1's uplink slow and n7's NIC slow: the slow set is more than the uplink explains, so the
  // uplink is not named (the smallest explaining set of several links is not built yet).
  const auto pairs = all_pairs(8, [](int a, int b) {
    const bool cross1 = (a / 2 == 1) != (b / 2 == 1);
    return cross1 || a == 7 || b == 7 ? 0.3 : 0.95;
  });
  EXPECT_FALSE(locate_slow_uplink(pairs, tree(4, 2), 0.8));
}

TEST(UplinkLocate, TooFewPairsToTell) {
  // leaf1 holds one host: its NIC explains the same pairs as either uplink, so nothing is named
  // (the host finding names the node).
  std::vector<FabricLeaf> leaves{{"leaf0", "spine", {h(0), h(1), h(2)}}, {"leaf1", "spine", {h(3)}}};
  const auto pairs = all_pairs(4, [](int a, int b) { return a == 3 || b == 3 ? 0.2 : 0.95; });
  EXPECT_FALSE(locate_slow_uplink(pairs, leaves, 0.8));
  // A single pair crossing is never enough.
  EXPECT_FALSE(locate_slow_uplink({{h(0), h(1), 0.95}, {h(0), h(2), 0.95}, {h(1), h(2), 0.2}},
                                  {{"leaf0", "spine", {h(0), h(1)}}, {"leaf1", "spine", {h(2)}}}, 0.8));
  // Hosts the fabric does not place are left out, not guessed.
  EXPECT_FALSE(locate_slow_uplink(all_pairs(4, [](int a, int b) { return a == 3 || b == 3 ? 0.2 : 0.95; }),
                                  {{"leaf0", "spine", {h(0), h(1)}}}, 0.8));
}

// A report as the tcp suite leaves it: the matrix record, pair findings, optionally a fabric.
Report matrix_report(bool with_fabric) {
  Report rep;
  Record m;
  m.suite = "tcp";
  m.name = "matrix";
  std::vector<std::string> hosts;
  for (int i = 0; i < 8; ++i) hosts.push_back(h(i));
  nlohmann::json g = nlohmann::json::array();
  for (int a = 0; a < 8; ++a) {
    nlohmann::json row = nlohmann::json::array();
    for (int b = 0; b < 8; ++b) row.push_back(a == b ? nlohmann::json(nullptr) : nlohmann::json(a / 4 != b / 4 ? 0.05 : 0.095));
    g.push_back(row);
  }
  m.extra = {{"hosts", hosts}, {"goodput_Gbps", g}, {"suspect_fraction", 0.8}, {"retests", nlohmann::json::array()}};
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
                            {{{"name", "leaf0"}, {"nodes", {h(0), h(1), h(2), h(3)}}, {"switches", nlohmann::json::array()}},
                             {{"name", "leaf1"}, {"nodes", {h(4), h(5), h(6), h(7)}}, {"switches", nlohmann::json::array()}},
                             {{"name", "spine"}, {"nodes", nlohmann::json::array()}, {"switches", {"leaf0", "leaf1"}}}}}};
  return rep;
}

TEST(UplinkLocate, WhatIsWrongNamesTheUplinkInsteadOfThePairs) {
  const auto lines = problem_sentences(matrix_report(true));
  ASSERT_EQ(lines.size(), 1u) << lines.size();
  EXPECT_EQ(lines[0].rfind("leaf0 ↔ spine or leaf1 ↔ spine: 32 of 32 pairs crossing them at 0.05 Gb/s", 0), 0u) << lines[0];
  EXPECT_NE(problems_markdown(matrix_report(true)).find("leaf1 ↔ spine"), std::string::npos);
  EXPECT_NE(problems_html(matrix_report(true)).find("leaf1 ↔ spine"), std::string::npos);
}

TEST(UplinkLocate, WithoutAFabricOneLineSaysWhatItWouldTell) {
  const auto lines = problem_sentences(matrix_report(false));
  ASSERT_EQ(lines.size(), 33u);
  EXPECT_EQ(lines[0],
            "32 slow pairs name no single node; with --fabric FILE (Slurm's topology.conf) the report could tell "
            "whether they share a switch uplink");
}

}  // namespace
}  // namespace gpunet::report
