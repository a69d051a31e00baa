// The fabric test's figures in the report: the oversubscription arithmetic and its sentence, the
// "Fabric" table (report.md and report.html alike), and the spec's fabric promise (parsing and verdict).
#include <gtest/gtest.h>

#include "tests/support/occurrences.hpp"
#include "tests/support/spec_names.hpp"
#include "report/analysis/fabric_view.hpp"
#include "report/analysis/oversubscription.hpp"
#include "report/render/renderers.hpp"
#include "report/render/svg_fabric.hpp"
#include "report/judge/spec.hpp"
#include "report/document/table_model.hpp"
#include "report/judge/verdicts.hpp"

using namespace gpunet::report;
using gpunet::json;
using gpunet::test_support::occurrences;

namespace {

Record uplink(const std::string& leaf, double measured, double nodes_sum) {
  Record r;
  r.suite = "tcp";
  r.name = "fabric";
  r.variant = leaf;
  r.host = "n0";
  r.extra = {{"leaf", leaf},           {"parent", "spine"},        {"hosts", {"a", "b", "c", "d"}},
             {"measured_Gbps", measured}, {"nodes_sum_Gbps", nodes_sum}, {"direction", "up"}};
  Figure f;
  f.metric = kOversubscriptionMetric;
  f.value = nodes_sum / measured;
  f.unit = kOversubscriptionUnit;
  f.better = Better::lower;
  f.subject = group_subject("uplink", leaf, 4);
  f.subject.dst_host = "spine";
  f.parameters = {{"test", "fabric"}, {"streams", "1"}};
  r.figure = f;
  return r;
}

Report two_uplinks(double ratio0, double ratio1) {
  Report rep;
  rep.results = {uplink("leaf0", 7.7 / ratio0, 7.7), uplink("leaf1", 7.7 / ratio1, 7.7)};
  return rep;
}

Verdict fabric_verdict(const Report& rep, const std::string& promise) {
  const auto spec = parse_spec(json::parse(R"({"spec_version": 2, "fabric": )" + promise + "}"), "s.json", gpunet::test_support::suite_spec_names());
  const auto v = evaluate(rep, spec);
  EXPECT_EQ(v.size(), 1u);
  return v.empty() ? Verdict{} : v[0];
}

std::string spec_problem(const std::string& fabric) {
  try {
    parse_spec(json::parse(R"({"spec_version": 1, "fabric": )" + fabric + "}"), "s.json", gpunet::test_support::suite_spec_names());
  } catch (const SpecError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(Oversubscription, TheWorseDirectionAgainstItsNodesSum) {
  const auto o = oversubscription({3.9, 7.7}, {4.0, 7.7});
  ASSERT_TRUE(o);
  EXPECT_NEAR(o->ratio, 7.7 / 3.9, 1e-12);
  EXPECT_TRUE(o->up);
  EXPECT_DOUBLE_EQ(o->measured_Gbps, 3.9);
  EXPECT_EQ(oversubscription_text("leaf1", "spine", *o), "leaf1 ↔ spine: 1.97:1, 3.9 of 7.7 Gb/s");
  const auto down = oversubscription({4.0, 7.7}, {1.0, 4.0});
  ASSERT_TRUE(down);
  EXPECT_DOUBLE_EQ(down->ratio, 4.0);
  EXPECT_FALSE(down->up);
  EXPECT_NEAR(oversubscription({7.6, 7.7}, {7.7, 7.7})->ratio, 1.013, 1e-3);  // non-blocking reads about 1
  EXPECT_FALSE(oversubscription({0, 7.7}, {3.9, 7.7}));                      // nothing crossed one way
  EXPECT_FALSE(oversubscription({3.9, 0}, {3.9, 7.7}));                      // ceilings unknown
  EXPECT_EQ(oversubscription_text("l", "s", {2, 0.024, 0.048, true}), "l ↔ s: 2.00:1, 0.024 of 0.048 Gb/s");
  EXPECT_EQ(oversubscription_text("l", "s", {1.5, 200, 300, true}), "l ↔ s: 1.50:1, 200 of 300 Gb/s");
}

TEST(Oversubscription, OneTableRowPerUplinkInMarkdownAndHtml) {
  Report rep = two_uplinks(1.98, 1.02);
  rep.results[1].extra["link_speed"] = 100;
  const auto tables = report_tables(rep, BlamedPairs(rep));
  const auto t = std::find_if(tables.begin(), tables.end(), [](const Table& x) { return x.kind == TableKind::fabric; });
  ASSERT_NE(t, tables.end());
  EXPECT_EQ(t->csv, "fabric.csv");
  ASSERT_EQ(t->rows.size(), 2u);
  EXPECT_EQ(t->rows[0].cells[0].text, "leaf0 ↔ spine");
  EXPECT_EQ(t->rows[0].cells[1].text, "1.98");
  EXPECT_EQ(t->rows[1].cells[6].text, "100");
  EXPECT_EQ(section_title(TableKind::fabric), "Fabric");
  const std::string md = render_markdown(rep), html = render_html(rep);
  for (const auto* text : {"leaf0 ↔ spine: 1.98:1, 3.9 of 7.7 Gb/s", "leaf1 ↔ spine: 1.02:1, 7.5 of 7.7 Gb/s"}) {
    EXPECT_NE(md.find(text), std::string::npos) << text;
    EXPECT_NE(html.find(text), std::string::npos) << text;
  }
  EXPECT_NE(md.find("\n## Fabric\n"), std::string::npos);
  EXPECT_NE(html.find("<h2>Fabric</h2>"), std::string::npos);
  // A failed uplink record (no figure) is a check, not a table row.
  rep.results[0].figure.reset();
  rep.results[0].status = Status::failed;
  EXPECT_EQ(record_table_kind(rep.results[0]), TableKind::checks);
}

TEST(FabricPromise, ParsesAndRefusesBadValuesWithTheField) {
  const auto spec = parse_spec(json::parse(R"({"spec_version": 1, "fabric": {"max_oversubscription": 1.2}})"), "s.json", gpunet::test_support::suite_spec_names());
  ASSERT_TRUE(spec.fabric);
  EXPECT_DOUBLE_EQ(spec.fabric->max_oversubscription, 1.2);
  EXPECT_FALSE(spec.fabric->non_blocking);
  const auto nb = parse_spec(json::parse(R"({"spec_version": 2, "fabric": {"non_blocking": true}})"), "s.json", gpunet::test_support::suite_spec_names());
  ASSERT_TRUE(nb.fabric);
  EXPECT_TRUE(nb.fabric->non_blocking);
  EXPECT_DOUBLE_EQ(nb.fabric->max_oversubscription, kNonBlockingRatio);
  EXPECT_EQ(spec_problem(R"({"max_oversubscription": 0.5})"),
            "s.json: fabric.max_oversubscription: 0.5 is out of range (expected >= 1 and <= 1000)");
  EXPECT_EQ(spec_problem(R"({"max_oversubscription": "2:1"})"),
            "s.json: fabric.max_oversubscription: expected a number, got \"2:1\"");
  EXPECT_EQ(spec_problem(R"({"non_blocking": false})"),
            "s.json: fabric.non_blocking: false promises nothing (give max_oversubscription, e.g. 2 for 2:1, or leave fabric out)");
  EXPECT_EQ(spec_problem(R"({"non_blocking": "yes"})"), "s.json: fabric.non_blocking: expected true or false, got \"yes\"");
  EXPECT_EQ(spec_problem(R"({"non_blocking": true, "max_oversubscription": 2})"),
            "s.json: fabric: give one of max_oversubscription and non_blocking, not both");
  EXPECT_EQ(spec_problem("{}"), "s.json: fabric: states nothing (give max_oversubscription, e.g. 1.2, or non_blocking: true)");
  EXPECT_EQ(spec_problem(R"({"max_ratio": 2})"),
            "s.json: fabric.max_ratio: unknown key (known here: max_oversubscription, non_blocking)");
  EXPECT_EQ(spec_problem("2"), "s.json: fabric: expected an object, got 2");
}

TEST(FabricPromise, FailNamesEveryUplinkOverTheBoundAndNoNode) {
  const auto v = fabric_verdict(two_uplinks(1.98, 2.03), R"({"max_oversubscription": 1.2})");
  EXPECT_EQ(v.status, VerdictStatus::fail);
  EXPECT_EQ(v.promise, "fabric max_oversubscription");
  EXPECT_EQ(v.limit, "<= 1.20:1");
  EXPECT_EQ(v.measured, "leaf1 ↔ spine 2.03:1");
  EXPECT_EQ(v.reason, "2 of 2 uplinks above 1.20:1: leaf0 ↔ spine: 1.98:1, 3.9 of 7.7 Gb/s, leaf1 ↔ spine: 2.03:1, 3.8 of 7.7 Gb/s");
  EXPECT_EQ(culprit_text(v), "the uplinks leaf0 ↔ spine, leaf1 ↔ spine: the nodes below them send more than the uplink carries, not a node");
  EXPECT_TRUE(v.hosts.empty());
  const auto one = fabric_verdict(two_uplinks(1.05, 1.6), R"({"non_blocking": true})");
  EXPECT_EQ(one.status, VerdictStatus::fail);
  EXPECT_EQ(one.limit, "<= 1.10:1 (non-blocking)");
  EXPECT_EQ(one.reason.rfind("1 of 2 uplinks above 1.10:1: leaf1 ↔ spine: 1.60:1", 0), 0u) << one.reason;
}

TEST(FabricPromise, PassSkipAndAFailedTest) {
  const auto pass = fabric_verdict(two_uplinks(1.05, 1.02), R"({"non_blocking": true})");
  EXPECT_EQ(pass.status, VerdictStatus::pass);
  EXPECT_EQ(pass.reason, "every uplink (2) at or below 1.10:1; worst leaf0 ↔ spine: 1.05:1, 7.3 of 7.7 Gb/s");
  const auto none = fabric_verdict(Report{}, R"({"max_oversubscription": 3})");
  EXPECT_EQ(none.status, VerdictStatus::skip);
  EXPECT_EQ(none.reason, "not judged: the run has no fabric figures (run --tcp-tests ...,fabric with --fabric FILE)");
  Report skipped;
  Record s;
  s.suite = "tcp";
  s.name = "fabric";
  s.status = Status::skipped;
  s.reason = "the fabric test needs --fabric FILE";
  skipped.results = {s};
  EXPECT_EQ(fabric_verdict(skipped, R"({"max_oversubscription": 3})").reason,
            "the fabric test was skipped: the fabric test needs --fabric FILE");
  Report failed = two_uplinks(1.0, 1.0);
  failed.results[1].figure.reset();
  failed.results[1].status = Status::failed;
  failed.results[1].reason = "flow n5 -> n1: reset";
  const auto f = fabric_verdict(failed, R"({"max_oversubscription": 3})");
  EXPECT_EQ(f.status, VerdictStatus::fail);
  EXPECT_EQ(f.reason, "the fabric test of leaf1 did not deliver its figure: flow n5 -> n1: reset");
}

namespace {

// 8 hosts in 4 racks of 2 under one spine; the matrix has every pair at 0.95 Gb/s except those crossing
// leaf1's uplink (h2, h3) at 0.3, and h7's pairs at 0.4 when `slow_node`.
Report racked(bool slow_node) {
  Report rep;
  json switches = json::array();
  std::vector<std::string> hosts;
  for (int l = 0; l < 4; ++l) {
    const std::string a = "h" + std::to_string(2 * l), b = "h" + std::to_string(2 * l + 1);
    hosts.insert(hosts.end(), {a, b});
    switches.push_back({{"name", "leaf" + std::to_string(l)}, {"nodes", {a, b}}, {"switches", json::array()}});
  }
  switches.push_back({{"name", "spine"}, {"nodes", json::array()}, {"switches", {"leaf0", "leaf1", "leaf2", "leaf3"}}});
  rep.extra["fabric"] = {{"file", "t.conf"}, {"switches", switches}};
  const auto in_leaf1 = [](size_t i) { return i == 2 || i == 3; };
  json g = json::array();
  for (size_t i = 0; i < hosts.size(); ++i) {
    json row = json::array();
    for (size_t j = 0; j < hosts.size(); ++j) {
      if (i == j) row.push_back(nullptr);
      else if (slow_node && (i == 7 || j == 7)) row.push_back(0.4);
      else row.push_back(in_leaf1(i) != in_leaf1(j) ? 0.3 : 0.95);
    }
    g.push_back(row);
  }
  Record m;
  m.suite = "tcp";
  m.name = "matrix";
  m.extra = {{"hosts", hosts}, {"goodput_Gbps", g}, {"suspect_fraction", 0.8}};
  rep.results.push_back(m);
  return rep;
}

}  // namespace

TEST(FabricPicture, OneLinePerLinkColouredByEfficiencyWithTheSuspectMarked) {
  const Report rep = racked(false);
  const auto d = fabric_drawing(rep, fabric_location(rep));
  ASSERT_TRUE(d);
  ASSERT_EQ(d->uplinks.size(), 4u);
  ASSERT_EQ(d->node_links.size(), 8u);
  EXPECT_EQ(d->spines, (std::vector<std::string>{"spine"}));
  EXPECT_NEAR(*d->uplinks[1].efficiency, 0.3 / 0.95, 1e-9);  // every pair crossing leaf1 is slow
  EXPECT_TRUE(d->uplinks[1].culprit);
  EXPECT_FALSE(d->uplinks[0].culprit);
  EXPECT_NEAR(*d->node_links[2].efficiency, 1.0, 1e-9);  // h2 is fine with h3 inside its rack
  const std::string svg = svg_fabric(*d);
  EXPECT_EQ(occurrences(svg, "<line class=\"link "), 12u);  // 4 uplinks + 8 node links
  EXPECT_EQ(occurrences(svg, "<line class=\"link link-bad culprit\" data-a=\"leaf1\" data-b=\"spine\""), 1u);
  EXPECT_EQ(occurrences(svg, "class=\"link link-good\" data-a=\"leaf"), 3u);
  EXPECT_EQ(occurrences(svg, "class=\"link link-good\" data-a=\"h"), 8u);
  EXPECT_EQ(occurrences(svg, ">suspect</text>"), 1u);
  EXPECT_NE(svg.find("<title>leaf1 ↔ spine: 24 matrix pairs crossing it at 32% of the best pair (median)</title>"),
            std::string::npos) << svg;
  EXPECT_EQ(occurrences(render_html(racked(false)), "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart fabric\""), 1u);
}

TEST(FabricPicture, FabricFigureBeatsTheMatrixAndASlowNodeIsItsOwnLink) {
  Report rep = racked(true);
  rep.results.push_back(uplink("leaf0", 0.95, 1.9));  // 2:1 measured by the fabric test
  const auto d = fabric_drawing(rep, fabric_location(rep));
  ASSERT_TRUE(d);
  EXPECT_NEAR(*d->uplinks[0].efficiency, 0.5, 1e-9);
  EXPECT_EQ(d->uplinks[0].evidence, "leaf0 ↔ spine: 2.00:1, 0.95 of 1.9 Gb/s");
  EXPECT_NEAR(*d->node_links[7].efficiency, 0.4 / 0.95, 1e-9);
  EXPECT_EQ(link_class(d->node_links[7].efficiency, d->threshold), "link-bad");
  EXPECT_EQ(link_class(0.7, 0.8), "link-low");
  EXPECT_EQ(link_class(std::nullopt, 0.8), "link-unknown");
  EXPECT_EQ(link_class(0.8, 0.8), "link-good");
  // Without a fabric there is no picture.
  Report bare = racked(false);
  bare.extra.erase("fabric");
  EXPECT_FALSE(fabric_drawing(bare, fabric_location(bare)));
  EXPECT_EQ(render_html(bare).find("class=\"chart fabric\""), std::string::npos);
}
