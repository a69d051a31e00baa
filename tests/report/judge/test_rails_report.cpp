// Pairs on several rails in the report: subjects keyed with each end's interface, and a failed
// per-pair promise named on one NIC (host:iface) or on the node (every NIC of it).
#include <algorithm>
#include <map>

#include <gtest/gtest.h>

#include "tests/support/spec_names.hpp"
#include "report/judge/baseline.hpp"
#include "report/model/figure.hpp"
#include "report/judge/figure_select.hpp"
#include "report/model/record.hpp"
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
  gpunet::json j = s;
  EXPECT_EQ(j.at("iface"), "eth1");
  EXPECT_FALSE(gpunet::json(pair_subject("n0", 0, "n2", 2)).contains("iface"));
  EXPECT_EQ(subject_key(j.get<Subject>()), subject_key(s));
  EXPECT_EQ(pair_label(s, "->"), "n0:eth1 -> n2:eth1");
}

TEST(RailSubjects, OneNicOrTheNodeIsTheCulprit) {
  const auto fails = [](double v) { return v < 0.12; };
  // n2's eth1 pairs fail: the culprit is that NIC.
  auto one = rail_pairs([](int a, int b, const std::string& i) { return i == "eth1" && (a == 2 || b == 2); });
  auto o = judge_subjects(one, true, fails);
  EXPECT_EQ(o.failed.size(), 6u);
  ASSERT_EQ(o.culprits.size(), 1u);
  EXPECT_EQ(o.culprits[0].host, "n2:eth1");
  // n2's pairs fail on both rails: the node.
  auto both = rail_pairs([](int a, int b, const std::string&) { return a == 2 || b == 2; });
  o = judge_subjects(both, true, fails);
  EXPECT_EQ(o.failed.size(), 12u);
  ASSERT_EQ(o.culprits.size(), 1u);
  EXPECT_EQ(o.culprits[0].host, "n2");
  const auto said = culprit_sentences(o, "below 0.12 Gb/s", "Gb/s");
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0].rfind("n2: every directed pair with it (12) is below 0.12 Gb/s", 0), 0u);
  // n2's eth0 pairs and n1's eth1 pairs: no one host in every failure; each NIC failed all its pairs.
  auto two = rail_pairs([](int a, int b, const std::string& i) { return (i == "eth0" && (a == 2 || b == 2)) || (i == "eth1" && (a == 1 || b == 1)); });
  o = judge_subjects(two, true, fails);
  EXPECT_TRUE(o.common_hosts.empty());
  ASSERT_EQ(o.culprits.size(), 2u);
  EXPECT_EQ(o.culprits[0].host, "n2:eth0");
  EXPECT_EQ(o.culprits[1].host, "n1:eth1");
  EXPECT_TRUE(o.culprits_explain_all);
}

TEST(RailSubjects, APromiseMayNameOneRail) {
  const auto spec = parse_spec(gpunet::json::parse(R"({"spec_version": 1, "bandwidth": [
      {"suite": "tcp", "name": "bandwidth", "min": 0.12},
      {"suite": "tcp", "name": "bandwidth", "rail": 1, "min": 0.12},
      {"suite": "tcp", "name": "matrix", "interface": "eth0", "min": 0.12}]})"), "c.json", gpunet::test_support::suite_spec_names());
  ASSERT_EQ(spec.bandwidth.size(), 3u);
  EXPECT_FALSE(spec.bandwidth[0].sel.rail);
  EXPECT_EQ(spec.bandwidth[1].sel.rail, 1);
  EXPECT_EQ(spec.bandwidth[2].sel.iface, "eth0");
  EXPECT_THROW(parse_spec(gpunet::json::parse(R"({"spec_version": 1, "bandwidth": [
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

// The summary gives each rail's slowest pair and median for latency and for flows other than the
// matrix (neighbours), as it does for the matrix.
TEST(RailSubjects, SummaryHasEachRailsLatencyAndNeighbours) {
  Report rep;
  for (const std::string iface : {"eth0", "eth1"})
    for (int a = 0; a < 4; ++a) {
      const int b = (a + 1) % 4;
      Record lat;
      lat.suite = "tcp";
      lat.name = "latency";
      lat.kind = RecordKind::tcp_latency;
      lat.figure = time_figure("tcp.latency", iface == "eth1" && a == 2 ? 90 : 30, rail_pair_subject("n" + std::to_string(a), a, iface, "n" + std::to_string(b), b, iface));
      lat.figure->parameters = {{"test", "latency"}, {"rail", iface == "eth0" ? "0" : "1"}};
      rep.results.push_back(lat);
      Record flow = lat;
      flow.name = "bandwidth";
      flow.kind = RecordKind::tcp_flow;
      flow.figure = rate_figure("tcp.goodput", 0.18, "Gb/s", lat.figure->subject, PathModel::tcp_flow);
      flow.figure->parameters = {{"test", "neighbours"}, {"streams", "1"}, {"rail", lat.figure->parameters.at("rail")}};
      rep.results.push_back(flow);
    }
  std::map<std::string, std::string> rows;  // figure -> subject
  for (const auto& row : summary_table(rep).rows) rows[row.cells.at(1).text] = row.cells.at(2).text;
  for (const std::string rail : {"rail 0 eth0", "rail 1 eth1"}) {
    EXPECT_TRUE(rows.count("TCP latency p50 (" + rail + "), slowest pair")) << rail;
    EXPECT_TRUE(rows.count("TCP latency p50 (" + rail + "), median of 4")) << rail;
    EXPECT_TRUE(rows.count("TCP goodput (" + rail + "), slowest pair")) << rail;
  }
  EXPECT_EQ(rows["TCP latency p50 (rail 1 eth1), slowest pair"].rfind("n2:eth1 ", 0), 0u) << rows["TCP latency p50 (rail 1 eth1), slowest pair"];
  EXPECT_FALSE(rows.count("TCP latency p50, slowest pair"));
}

namespace {

// Matrix flows of 3 hosts at 0.18 Gb/s (timeline samples around it): on one interface (rails empty),
// or on each of `rails` with the figure's "rail" parameter and each end's interface.
Report matrix_run(const std::vector<std::string>& rails) {
  Report rep;
  const std::vector<std::string> ifaces = rails.empty() ? std::vector<std::string>{""} : rails;
  for (size_t k = 0; k < ifaces.size(); ++k)
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        if (a == b) continue;
        Record r;
        r.suite = "tcp";
        r.name = "bandwidth";
        r.variant = "matrix";
        r.kind = RecordKind::tcp_flow;
        const std::string src = "n" + std::to_string(a), dst = "n" + std::to_string(b);
        r.figure = rate_figure("tcp.goodput", 0.18, "Gb/s",
                               rails.empty() ? pair_subject(src, a, dst, b) : rail_pair_subject(src, a, ifaces[k], dst, b, ifaces[k]),
                               PathModel::tcp_flow);
        r.figure->parameters = {{"test", "matrix"}, {"streams", "1"}};
        if (!rails.empty()) r.figure->parameters["rail"] = std::to_string(k);
        r.figure->samples = {0.179, 0.18, 0.181, 0.18, 0.179, 0.181, 0.18, 0.18};
        rep.results.push_back(r);
      }
  return rep;
}

}  // namespace

// A baseline saved from a one-interface run judges rail 0 of a run on two rails (and the other way
// round); rail 1's figures are new.
TEST(RailBaseline, OneInterfaceBaselineMatchesRailZero) {
  const Baseline one = make_baseline(matrix_run({}));
  const Baseline rails = make_baseline(matrix_run({"eth0", "eth1"}));
  ASSERT_EQ(one.figures.size(), 6u);
  ASSERT_EQ(rails.figures.size(), 12u);
  for (const auto& [key, f] : rails.figures) EXPECT_GE(f.rail, 0) << key;
  const std::string rail0 = "tcp/bandwidth/matrix goodput_Gbps n0:eth0 -> n2:eth0";
  ASSERT_TRUE(rails.figures.count(rail0));
  EXPECT_EQ(one_interface_key(rail0, rails.figures.at(rail0)), "tcp/bandwidth/matrix goodput_Gbps n0 -> n2");
  EXPECT_EQ(one_interface_key("tcp/bandwidth/matrix goodput_Gbps n0:eth1 -> n2:eth1",
                              rails.figures.at("tcp/bandwidth/matrix goodput_Gbps n0:eth1 -> n2:eth1")), "")
      << "rail 1 is not what a one-interface run measured";
  for (const auto& [base, now] : {std::pair{&one, &rails}, {&rails, &one}}) {
    const auto c = compare(*base, *now);
    int same = 0, missing = 0;
    for (const auto& row : c.rows) {
      same += row.change == Change::same;
      missing += row.reason == "not measured in this run";
    }
    EXPECT_EQ(same, 6) << comparison_summary(c);
    EXPECT_EQ(missing, base == &one ? 0 : 6) << "rail 1 of the baseline is not in a one-interface run";
    EXPECT_EQ(c.new_figures, base == &one ? 6u : 0u);
  }
  // Freeing now's figures as they are judged changes no row, also where two baseline figures (one
  // keyed without interfaces, one of rail 0) stand for the same figure of now.
  Baseline both = one;
  both.figures.insert(rails.figures.begin(), rails.figures.end());
  for (const auto& [base, now] : {std::pair{&one, &rails}, {&rails, &one}, {&both, &one}, {&both, &rails}}) {
    const auto kept = compare(*base, *now);
    NowFigures moved = now_figures(*now);
    const auto freed = compare(*base, std::move(moved));
    EXPECT_TRUE(moved.empty());
    EXPECT_EQ(freed.new_figures, kept.new_figures);
    ASSERT_EQ(freed.rows.size(), kept.rows.size());
    for (std::size_t i = 0; i < kept.rows.size(); ++i) {
      EXPECT_EQ(freed.rows[i].key, kept.rows[i].key);
      EXPECT_EQ(freed.rows[i].change, kept.rows[i].change) << kept.rows[i].key;
      EXPECT_EQ(freed.rows[i].reason, kept.rows[i].reason) << kept.rows[i].key;
      EXPECT_EQ(freed.rows[i].now_value, kept.rows[i].now_value) << kept.rows[i].key;
    }
  }
  const auto twice = compare(both, one);
  EXPECT_EQ(twice.rows.size(), 18u);
  EXPECT_EQ(std::count_if(twice.rows.begin(), twice.rows.end(), [](const Comparison& r) { return r.change == Change::same; }), 12)
      << "each figure of the one-interface run stands for two baseline figures";
  // The rail survives the file, so a saved rail baseline still matches.
  const Baseline reread = baseline_from_json(baseline_to_json(rails), "rails.json");
  EXPECT_EQ(reread.figures.at(rail0).rail, 0);
  EXPECT_FALSE(baseline_to_json(one).at("figures").begin()->contains("rail"));
  // Learning the noise follows the same match.
  const auto learnt = learn_noise(one, rails, compare(one, rails));
  EXPECT_EQ(learnt.figures.at("tcp/bandwidth/matrix goodput_Gbps n0 -> n2").history.size(), 1u);
}

// RDMA on several ports (--rdma-dev all): one WRITE-bandwidth matrix per rail, named by its port, and
// the summary's slowest pair and median per rail. Synthetic records as the rdma suite writes them on
// a rail (subject host:dev:port, parameter rail, variant ending "rail K"): no RDMA device here.
TEST(RailSubjects, RdmaMatrixAndSummaryPerRail) {
  Report rep;
  for (int k = 0; k < 2; ++k) {
    const std::string port = "mlx5_" + std::to_string(k) + ":1";
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b) {
        Record r;
        r.suite = "rdma";
        r.name = "write_bw";
        r.variant = "host rail " + std::to_string(k);
        r.kind = RecordKind::rdma_bandwidth;
        const std::string src = "n" + std::to_string(a), dst = "n" + std::to_string(b);
        r.extra = {{"src_host", src}, {"dst_host", dst}, {"rail", k}};
        r.figure = rate_figure("rdma.write.bw", k == 1 && b == 2 ? 90 : 180, "Gb/s", rail_pair_subject(src, a, port, dst, b, port),
                               PathModel::rdma_port);
        r.figure->parameters = {{"rail", std::to_string(k)}};
        rep.results.push_back(r);
      }
  }
  std::vector<std::string> titles, csvs;
  for (const auto& t : pair_tables(rep, TableRecords(rep), BlamedPairs(rep)))
    if (t.title.rfind("RDMA", 0) == 0) titles.push_back(t.title), csvs.push_back(t.csv);
  EXPECT_EQ(titles, (std::vector<std::string>{"RDMA pair matrix, rail 0 (mlx5_0:1)", "RDMA pair matrix, rail 1 (mlx5_1:1)"}));
  EXPECT_EQ(csvs, (std::vector<std::string>{"rdma_matrix_rail0.csv", "rdma_matrix_rail1.csv"}));
  std::map<std::string, std::string> rows;
  for (const auto& row : summary_table(rep).rows) rows[row.cells.at(1).text] = row.cells.at(2).text;
  ASSERT_TRUE(rows.count("RDMA WRITE bandwidth (rail 1 mlx5_1:1), slowest pair")) << [&] {
    std::string s;
    for (const auto& [k, v] : rows) s += k + "\n";
    return s;
  }();
  EXPECT_NE(rows["RDMA WRITE bandwidth (rail 1 mlx5_1:1), slowest pair"].find(":mlx5_1:1"), std::string::npos);
  EXPECT_TRUE(rows.count("RDMA WRITE bandwidth (rail 0 mlx5_0:1), slowest pair"));
}

// Each rail's matrix names the GPUs whose nearest NIC carries its interface, from the nodes' topology
// sections, grouped by the GPUs they name.
TEST(RailSubjects, EachRailsMatrixNamesTheGpusBehindIt) {
  Report rep = matrix_run({"eth0", "eth1"});
  const auto gpu = [](const char* iface) { return gpunet::json{{"nearest_nic", {{"interfaces", {iface}}}}}; };
  for (const char* host : {"n0", "n1"}) rep.topology[host] = {{"gpus", {gpu("eth0"), gpu("eth1"), gpu("eth1")}}};
  rep.topology["n2"] = {{"gpus", {gpu("eth1"), gpu("eth0")}}};
  std::map<std::string, std::vector<std::string>> bullets;
  for (const auto& t : pair_tables(rep, TableRecords(rep), BlamedPairs(rep))) bullets[t.title] = t.bullets;
  const auto has = [&](const std::string& title, const std::string& line) {
    const auto& b = bullets[title];
    return std::find(b.begin(), b.end(), line) != b.end();
  };
  EXPECT_TRUE(has("TCP pair matrix, rail 0 (eth0)", "GPUs behind eth0 (their nearest NIC carries it): GPU0 on n0, n1; GPU1 on n2"));
  EXPECT_TRUE(has("TCP pair matrix, rail 1 (eth1)", "GPUs behind eth1 (their nearest NIC carries it): GPU0 on n2; GPU1, GPU2 on n0, n1"));
  // A one-interface run has no rails to name GPUs for.
  Report one = matrix_run({});
  one.topology = rep.topology;
  for (const auto& t : pair_tables(one, TableRecords(one), BlamedPairs(one)))
    for (const auto& b : t.bullets) EXPECT_EQ(b.find("GPUs behind"), std::string::npos) << b;
}
