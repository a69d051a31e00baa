// Pairs on several rails in the report: subjects keyed with each end's interface, and a failed
// per-pair promise named on one NIC (host:iface) or on the node (every NIC of it).
#include <gtest/gtest.h>

#include "tests/support/spec_names.hpp"
#include "report/model/figure.hpp"
#include "report/judge/figure_select.hpp"
#include "report/judge/spec.hpp"
#include "report/document/table_model.hpp"
#include "report/judge/verdict_subjects.hpp"

using namespace gpunet::report;

namespace {

// Directed pairs of 4 hosts on rails eth0 and eth1, at 0.18 Gb/s, or 0.04 where `slow` says.
template <class Slow>
std::vector<SubjectValue> rail_pairs(Slow&& slow) {
  std::vector<SubjectValue> out;
  for (const std::string iface : {"eth0", "eth1"})
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        if (a == b) continue;
        SubjectValue v;
        v.subject.kind = FactSubjectKind::pair;
        v.subject.src_host = "n" + std::to_string(a) + ":" + iface;
        v.subject.dst_host = "n" + std::to_string(b) + ":" + iface;
        v.value = slow(a, b, iface) ? 0.04 : 0.18;
        out.push_back(v);
      }
  return out;
}

}  // namespace

TEST(RailSubjects, KeyAndJsonCarryTheInterfaces) {
  const Subject s = rail_pair_subject("n0", 0, "eth1", "n2", 2, "eth1");
  EXPECT_EQ(subject_key(s), "pair:n0/0:eth1->n2/2:eth1");
  EXPECT_EQ(subject_key(pair_subject("n0", 0, "n2", 2)), "pair:n0/0->n2/2");  // one rail: as before
  nlohmann::json j = s;
  EXPECT_EQ(j.at("iface"), "eth1");
  EXPECT_FALSE(nlohmann::json(pair_subject("n0", 0, "n2", 2)).contains("iface"));
  EXPECT_EQ(subject_key(j.get<Subject>()), subject_key(s));
  EXPECT_EQ(pair_label(s, "->"), "n0:eth1 -> n2:eth1");
}

TEST(RailSubjects, OneNicOrTheNodeIsTheCulprit) {
  const auto fails = [](double v) { return v < 0.12; };
  // n2's eth1 pairs fail: the culprit is that NIC.
  auto one = rail_pairs([](int a, int b, const std::string& i) { return i == "eth1" && (a == 2 || b == 2); });
  auto o = judge_subjects(one, true, fails);
  EXPECT_EQ(o.failed.size(), 6u);
  EXPECT_EQ(o.culprit, "n2:eth1");
  // n2's pairs fail on both rails: the node.
  auto both = rail_pairs([](int a, int b, const std::string&) { return a == 2 || b == 2; });
  o = judge_subjects(both, true, fails);
  EXPECT_EQ(o.failed.size(), 12u);
  EXPECT_EQ(o.culprit, "n2");
  EXPECT_EQ(culprit_sentence(o, "below 0.12 Gb/s", "Gb/s").rfind("n2: every directed pair with it (12) is below 0.12 Gb/s", 0), 0u);
  // n2's eth0 pairs and n1's eth1 pairs: no one culprit.
  auto two = rail_pairs([](int a, int b, const std::string& i) { return (i == "eth0" && (a == 2 || b == 2)) || (i == "eth1" && (a == 1 || b == 1)); });
  EXPECT_EQ(judge_subjects(two, true, fails).culprit, "");
}

TEST(RailSubjects, APromiseMayNameOneRail) {
  const auto spec = parse_spec(nlohmann::json::parse(R"({"spec_version": 1, "bandwidth": [
      {"suite": "tcp", "name": "bandwidth", "min": 0.12},
      {"suite": "tcp", "name": "bandwidth", "rail": 1, "min": 0.12},
      {"suite": "tcp", "name": "matrix", "interface": "eth0", "min": 0.12}]})"), "c.json", gpunet::test_support::suite_spec_names());
  ASSERT_EQ(spec.bandwidth.size(), 3u);
  EXPECT_FALSE(spec.bandwidth[0].sel.rail);
  EXPECT_EQ(spec.bandwidth[1].sel.rail, 1);
  EXPECT_EQ(spec.bandwidth[2].sel.iface, "eth0");
  EXPECT_THROW(parse_spec(nlohmann::json::parse(R"({"spec_version": 1, "bandwidth": [
      {"suite": "tcp", "name": "bandwidth", "rail": "one", "min": 0.12}]})"), "c.json", gpunet::test_support::suite_spec_names()), SpecError);
  Report rep;
  for (int rail : {0, 1}) {
    Record r;
    r.suite = "tcp";
    r.name = "bandwidth";
    r.variant = "matrix";
    const std::string iface = "eth" + std::to_string(rail);
    r.figure = rate_figure("tcp.goodput", 0.18, "Gb/s", rail_pair_subject("n0", 0, iface, "n1", 1, iface), PathModel::tcp_flow);
    r.figure->parameters = {{"test", "matrix"}, {"rail", std::to_string(rail)}};
    r.extra["rail"] = rail;
    r.extra["src_iface"] = iface;
    rep.results.push_back(r);
  }
  const auto query = [&](const FigureSelector& s) {
    return select_figures(rep, FigureQuery{s.suite, s.name, s.variant, s.figure, s.bytes, s.rail, s.iface, s.stands_for, s.left_out});
  };
  EXPECT_EQ(query(spec.bandwidth[0].sel).size(), 2u);  // every rail
  const auto one = query(spec.bandwidth[1].sel);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].subject.src_host, "n0:eth1");
  const auto by_name = query(spec.bandwidth[2].sel);
  ASSERT_EQ(by_name.size(), 1u);
  EXPECT_EQ(by_name[0].subject.src_host, "n0:eth0");
}
