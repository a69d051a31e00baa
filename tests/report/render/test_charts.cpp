// The charts of report.html on Reports built in code (no cluster): which figures the pair heatmap
// takes and how it colours them, the typical pair, the flow timelines, size and scaling charts, the
// charts left out with a reason, and legends that are never cut.
#include <gtest/gtest.h>

#include <regex>

#include "report/analysis/analysis.hpp"
#include "report/render/chart_pairs.hpp"
#include "report/render/chart_timeline.hpp"
#include "report/render/html_charts.hpp"
#include "report/render/renderers.hpp"
#include "report/render/svg_chart.hpp"
#include "tests/support/occurrences.hpp"

using namespace gpunet::report;
using gpunet::json;
using gpunet::test_support::occurrences;

namespace {

json chart_link(double bps) { return {{"kind", "ethernet"}, {"speed_Mbps", 10000}, {"mtu", 1500}, {"shaped_rate_bps", bps}}; }

std::string chart_node(int i) { return "n" + std::to_string(i); }

// A flow record as the tcp suite writes it: pair subject, test parameter, timeline samples.
Record chart_flow(const std::string& test, int src, int dst, double gbps, double link_src_bps, double link_dst_bps,
            std::vector<double> samples = {}) {
  Record r;
  r.suite = "tcp";
  r.name = "bandwidth";
  r.variant = test;
  r.host = chart_node(dst);
  r.rank = dst;
  r.bytes = 123456789;  // bytes received: not a message size
  r.extra = {{"link", chart_link(link_src_bps)}, {"dst_link", chart_link(link_dst_bps)}, {"interval_s", 0.1}};
  if (!samples.empty()) {
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    r.extra["stability"] = {{"threshold_Gbps", 0.8 * median}, {"p50_Gbps", median}};
  }
  r.figure = rate_figure("tcp.goodput", gbps, "Gb/s", pair_subject(chart_node(src), src, chart_node(dst), dst), PathModel::tcp_flow);
  r.figure->parameters = {{"test", test}, {"streams", "1"}};
  r.figure->samples = std::move(samples);
  return r;
}

constexpr double kFast = 100e6, kSlow = 25e6;  // node 3's link is a quarter of the others'
const double kFastGoodput = 0.0955, kSlowGoodput = 0.0239;

// Four nodes, node 3 slow: the matrix, plus one-to-many flows and re-tests whose values differ, so
// that a heatmap mixing them in would show other numbers.
Report four_nodes_one_slow() {
  Report rep;
  for (int i = 0; i < 4; ++i) rep.provenance.hosts.push_back(chart_node(i));
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 4; ++d) {
      if (s == d) continue;
      const bool slow = s == 3 || d == 3;
      const double g = (slow ? kSlowGoodput : kFastGoodput) * (1 - 0.001 * (4 * s + d));
      std::vector<double> samples(10, g);
      if (s == 1 && d == 2) samples[4] = samples[5] = g / 2;  // one flow dips
      rep.results.push_back(chart_flow("matrix", s, d, g, s == 3 ? kSlow : kFast, d == 3 ? kSlow : kFast, samples));
    }
  // (into node 3 below its shaper: a flow above it would show that shaper does not bound what n3 receives)
  for (int d = 1; d < 4; ++d) rep.results.push_back(chart_flow("one-to-many", 0, d, d == 3 ? 0.02 : 0.031, kFast, d == 3 ? kSlow : kFast));
  rep.results.push_back(chart_flow("retest", 0, 3, 0.0111, kFast, kSlow));
  analyze(rep);
  return rep;
}

const HeatmapCell& heat_cell(const Heatmap& h, const std::string& src, const std::string& dst) {
  const auto i = std::find(h.labels.begin(), h.labels.end(), src) - h.labels.begin();
  const auto j = std::find(h.labels.begin(), h.labels.end(), dst) - h.labels.begin();
  return h.cells.at(static_cast<size_t>(i)).at(static_cast<size_t>(j));
}

}  // namespace

TEST(Charts, HeatmapTakesOnlyTheMatrixFlows) {
  const Report rep = four_nodes_one_slow();
  const auto d = pair_heatmaps(rep, BlamedPairs(rep));
  ASSERT_EQ(d.charts.size(), 1u);
  const Heatmap& h = d.charts[0];
  EXPECT_EQ(h.labels, (std::vector<std::string>{"n0", "n1", "n2", "n3"}));
  for (const auto& r : rep.results) {
    if (r.figure->parameters.at("test") != "matrix") continue;
    const auto& c = heat_cell(h, r.figure->subject.host, r.figure->subject.dst_host);
    ASSERT_TRUE(c.value);
    EXPECT_DOUBLE_EQ(*c.value, r.figure->value) << r.figure->subject.host << " -> " << r.figure->subject.dst_host;
    ASSERT_TRUE(c.efficiency);
    EXPECT_DOUBLE_EQ(*c.efficiency, *r.figure->efficiency);  // against its own link
  }
  EXPECT_FALSE(heat_cell(h, "n2", "n2").measured);
}

TEST(Charts, HeatmapMarksExactlyTheSlowNodesRowAndColumnBad) {
  const Report rep = four_nodes_one_slow();
  const auto h = pair_heatmaps(rep, BlamedPairs(rep)).charts.at(0);
  EXPECT_NEAR(h.reference, kFastGoodput, 0.001);  // the typical pair, not the median of all cells
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 4; ++d) {
      if (s == d) continue;
      const auto& c = heat_cell(h, chart_node(s), chart_node(d));
      EXPECT_EQ(c.good, s != 3 && d != 3) << chart_node(s) << " -> " << chart_node(d);
      // Every cell is near its own link's ceiling, whatever its colour.
      EXPECT_GT(*c.efficiency, 0.9);
    }
  const std::string svg = svg_heatmap(h);
  EXPECT_EQ(occurrences(svg, "class=\"pair bad\""), 6u);
  EXPECT_EQ(occurrences(svg, "class=\"pair good\""), 6u);
  EXPECT_NE(svg.find("data-src=\"n3\" data-dst=\"n0\""), std::string::npos);
  EXPECT_NE(svg.find("typical pair"), std::string::npos);
  EXPECT_NE(svg.find("6 of 12 pairs below 80%"), std::string::npos);
  // The number in a cell is its figure, and its efficiency is under it.
  EXPECT_NE(svg.find(">0.0954<"), std::string::npos);  // n0 -> n1: 0.0955 x 0.999
  EXPECT_EQ(svg.find(">0.0310<"), std::string::npos);   // no one-to-many flow
  EXPECT_EQ(svg.find(">0.0111<"), std::string::npos);  // no re-test
  EXPECT_NE(svg.find("class=\"cell eff\">"), std::string::npos);
}

TEST(Charts, HeatmapIsColouredAgainstThePromisedRateWhenTheSpecGivesOne) {
  Report rep = four_nodes_one_slow();
  rep.extra["spec"] = {{"file", "spec.json"}, {"name", "contract"}, {"link_rate_Gbps", 0.2}};
  const auto h = pair_heatmaps(rep, BlamedPairs(rep)).charts.at(0);
  EXPECT_DOUBLE_EQ(h.reference, 0.2);
  for (const auto& row : h.cells)
    for (const auto& c : row) EXPECT_FALSE(c.measured && c.good);  // 0.0955 is 48% of the promise
  ASSERT_GE(h.legend.size(), 2u);
  EXPECT_NE(h.legend[1].find("promised link rate, 0.200 Gb/s (the spec \"contract\")"), std::string::npos) << h.legend[1];
}

TEST(Charts, NoCellAboveItsCeilingOrBlamedInWhatIsWrongIsGreen) {
  Report rep = four_nodes_one_slow();
  for (auto& r : rep.results)  // n1 -> n2 at 130 % of a ceiling that does not fit its path
    if (r.figure->parameters.at("test") == "matrix" && r.figure->subject.host == "n1" && r.figure->subject.dst_host == "n2")
      r.figure->efficiency = 1.3;
  Record finding;  // n0 named slow sending: its rows are failing, at whatever rate
  finding.suite = "tcp", finding.name = "finding", finding.status = Status::failed, finding.host = "n0";
  finding.extra = {{"finding", {{"subject", "host"}, {"host", "n0"}, {"direction", "sending"}}}};
  rep.results.push_back(finding);
  const auto h = pair_heatmaps(rep, BlamedPairs(rep)).charts.at(0);
  for (const char* dst : {"n1", "n2"}) {
    EXPECT_TRUE(heat_cell(h, "n0", dst).blamed) << dst;
    EXPECT_FALSE(heat_cell(h, "n0", dst).good) << dst;
  }
  EXPECT_TRUE(heat_cell(h, "n1", "n0").good) << "into n0 is not named slow";
  const auto& above = heat_cell(h, "n1", "n2");
  EXPECT_TRUE(above.above_ceiling);
  EXPECT_FALSE(above.good);
  EXPECT_EQ(heat_colour(above, h.threshold, false), "hsl(275,45%,70%)");
  const std::string svg = svg_heatmap(h);
  EXPECT_EQ(occurrences(svg, "class=\"pair above\""), 1u);
  EXPECT_EQ(occurrences(svg, "class=\"pair good\""), 3u);  // n1 -> n0, n2 -> n0, n2 -> n1
  std::string legend;
  for (const auto& l : h.legend) legend += l + "\n";
  EXPECT_NE(legend.find("1 above their own path's ceiling (over 102%, purple): a ceiling to explain"), std::string::npos) << legend;
  EXPECT_NE(legend.find("3 named slow in What is wrong: coloured as failing"), std::string::npos) << legend;  // n0 -> n1, n2, n3
}

TEST(Charts, TypicalPairIgnoresOneSlowNode) {
  // Half of all cells involve node 3: their plain median would fall between the fast and slow rates.
  std::vector<std::vector<std::optional<double>>> v(4, std::vector<std::optional<double>>(4));
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 4; ++d)
      if (s != d) v[s][d] = (s == 3 || d == 3) ? 1.0 : 4.0;
  EXPECT_DOUBLE_EQ(*typical_pair(v), 4.0);
  EXPECT_FALSE(typical_pair({{std::nullopt}}));
}

TEST(Charts, HeatmapColours) {
  HeatmapCell good{true, 1.0, 0.99, 1.0, true, {}, false, false}, bad{true, 0.3, 0.99, 0.3, false, {}, false, false},
      failed{true, {}, {}, 0, false, "x", false, false};
  EXPECT_EQ(heat_colour(good, 0.8, false), "hsl(125.0,70%,55%)");
  EXPECT_EQ(heat_colour(bad, 0.8, false), "hsl(0.0,70%,55%)");
  EXPECT_EQ(heat_colour(failed, 0.8, false), "#9e9e9e");
  EXPECT_EQ(heat_colour(HeatmapCell{}, 0.8, true), "#dddddd");
}

TEST(Charts, NoHeatmapWithoutMatrixFlowsAndTheReasonIsGiven) {
  Report rep;
  for (int d = 1; d < 4; ++d) rep.results.push_back(chart_flow("one-to-many", 0, d, 0.031, kFast, kFast));
  analyze(rep);
  const auto d = pair_heatmaps(rep, BlamedPairs(rep));
  EXPECT_TRUE(d.charts.empty());
  ASSERT_EQ(d.omitted.size(), 1u);
  EXPECT_NE(d.omitted[0].find("no matrix flows"), std::string::npos);
  const std::string html = render_html(rep);
  EXPECT_NE(html.find("Not drawn: tcp pair heatmap: no matrix flows"), std::string::npos);
  EXPECT_EQ(html.find("vs message size"), std::string::npos);  // flows have no message size
}

TEST(Charts, TimelinesOfTheMatrixFlowsWithDipsMarked) {
  const auto t = timeline_charts(four_nodes_one_slow());
  ASSERT_EQ(t.groups.size(), 1u);  // one-to-many flows carry no samples here; re-tests are left out
  EXPECT_EQ(t.groups[0].test, "matrix");
  EXPECT_EQ(t.groups[0].panels.size(), 12u);
  EXPECT_NE(t.groups[0].title.find("per 0.1 s interval"), std::string::npos) << t.groups[0].title;
  EXPECT_NE(t.legend.find("80% of the flow's median"), std::string::npos);
  size_t dips = 0;
  for (const auto& p : t.groups[0].panels) {
    dips += dip_intervals(p);
    if (p.src == "n1" && p.dst == "n2") {
      EXPECT_EQ(dip_intervals(p), 2u);
      EXPECT_EQ(occurrences(svg_timeline_panel(p), "class=\"dip\""), 2u);
    }
  }
  EXPECT_EQ(dips, 2u);
}

// A flow measured while its receiver's listener refused strangers says so on its panel, as its record
// does (extra.rejected_connections, and the reason in the flows table's status cell).
TEST(Charts, TimelineSaysWhenStrangersWereRefusedDuringTheFlow) {
  Report rep = four_nodes_one_slow();
  for (auto& r : rep.results)
    if (r.figure && r.figure->subject.host == "n1" && r.figure->subject.dst_host == "n2" && r.variant == "matrix")
      r.extra["rejected_connections"] = 500;
  const auto t = timeline_charts(rep);
  ASSERT_EQ(t.groups.size(), 1u);
  size_t marked = 0;
  for (const auto& p : t.groups[0].panels) {
    const bool says = p.title.find("500 stranger connections refused meanwhile") != std::string::npos;
    EXPECT_EQ(says, p.src == "n1" && p.dst == "n2") << p.title;
    marked += says ? 1 : 0;
  }
  EXPECT_EQ(marked, 1u);
}

TEST(Charts, ManyTimelinesShowTheWorstFlowsAndSaySo) {
  Report rep;
  for (int k = 0; k < 20; ++k) {
    std::vector<double> s(10, 1.0);
    if (k == 17) s[3] = 0.2;
    rep.results.push_back(chart_flow("neighbours", k, k + 1, 1.0, 1e10, 1e10, s));
  }
  analyze(rep);
  const auto t = timeline_charts(rep);
  ASSERT_EQ(t.groups.size(), 1u);
  EXPECT_EQ(t.groups[0].panels.size(), kTimelinePanels);
  EXPECT_EQ(t.groups[0].panels[0].src, "n17");  // the deepest dip first
  EXPECT_NE(t.groups[0].note.find("12 of 20 flows"), std::string::npos);
}

TEST(Charts, NoTimelineWithoutIntervalsAndTheReasonIsGiven) {
  Report rep;
  rep.results.push_back(chart_flow("matrix", 0, 1, 1.0, 1e10, 1e10));
  rep.results.push_back(chart_flow("matrix", 1, 0, 1.0, 1e10, 1e10));
  const auto t = timeline_charts(rep);
  EXPECT_TRUE(t.groups.empty());
  ASSERT_EQ(t.omitted.size(), 1u);
  EXPECT_NE(t.omitted[0].find("no flow has two intervals"), std::string::npos);
}

namespace {

// A collective sweep point: busbw at a message size, on the cluster or on a scaling step's nodes.
Record chart_collective(const std::string& variant, int64_t bytes, double busbw, Subject subject) {
  Record r;
  r.suite = "mpi";
  r.name = "allreduce";
  r.variant = variant;
  r.bytes = bytes;
  r.dtype = "float";
  r.op = "sum";
  r.ranks = 4;
  r.busbw_GBps = busbw;
  r.extra = {{"link", chart_link(1e9)}, {"nodes", 4}};
  r.figure = collective_figure("mpi", "host", r, std::move(subject), {});
  return r;
}

}  // namespace

TEST(Charts, BusbwVsSizeWithCeilingAndOneSizeLeftOut) {
  Report rep;
  for (int64_t b : {1 << 20, 1 << 22, 1 << 24}) rep.results.push_back(chart_collective("out-of-place", b, 0.09, cluster_subject(4)));
  Record one = chart_collective("out-of-place", 1 << 20, 0.05, cluster_subject(4));
  one.name = "broadcast";
  one.figure = collective_figure("mpi", "host", one, cluster_subject(4), {});
  rep.results.push_back(one);
  rep.results.push_back(chart_flow("matrix", 0, 1, 0.9, 1e9, 1e9));  // bytes received is no message size
  analyze(rep);
  const auto d = size_charts(rep);
  ASSERT_EQ(d.charts.size(), 1u);
  EXPECT_EQ(d.charts[0].title, "mpi allreduce busbw vs message size");
  EXPECT_EQ(d.charts[0].series.size(), 1u);
  EXPECT_EQ(d.charts[0].series[0].points.size(), 3u);
  EXPECT_FALSE(d.charts[0].ceilings.empty());
  ASSERT_EQ(d.omitted.size(), 1u);
  EXPECT_EQ(d.omitted[0], "mpi.broadcast.busbw vs message size: measured at one message size only (1 MiB)");
}

TEST(Charts, BusbwVsNodeCount) {
  Report rep;
  for (int n : {1, 2, 4})
    rep.results.push_back(
        chart_collective("scaling " + std::to_string(n) + " chart_node(s)", 1 << 26, 1.0 / n, group_subject("scaling", "", n)));
  rep.results.push_back(chart_collective("scaling probe 3 chart_node(s)", 1 << 26, 0.3, group_subject("scaling", "", 3)));
  analyze(rep);
  const auto d = scaling_charts(rep);
  ASSERT_EQ(d.charts.size(), 1u);
  const auto& c = d.charts[0];
  ASSERT_GE(c.series.size(), 2u);
  EXPECT_EQ(c.series[0].label, "measured");
  EXPECT_EQ(c.series[0].points, (std::vector<std::pair<double, double>>{{1, 1.0}, {2, 0.5}, {4, 0.25}}));
  EXPECT_EQ(c.series[1].label, "probe groups");
  EXPECT_TRUE(size_charts(rep).charts.empty());  // scaling points are not a size sweep
}

TEST(Charts, ManySweepsAreMedianAndBand) {
  Report rep;
  for (int k = 0; k < 12; ++k)
    for (int64_t b : {1 << 16, 1 << 20}) {
      Record r = chart_collective("out-of-place", b, k == 7 ? 0.04 : 0.09, host_subject("h" + std::to_string(k)));
      rep.results.push_back(r);
    }
  analyze(rep);
  const auto d = size_charts(rep);
  ASSERT_EQ(d.charts.size(), 1u);
  ASSERT_EQ(d.charts[0].series.size(), 1u);
  EXPECT_EQ(d.charts[0].series[0].label, "median of 12 sweeps (band: their minimum to maximum)");
  ASSERT_EQ(d.charts[0].series[0].band.size(), 2u);
  EXPECT_DOUBLE_EQ(d.charts[0].series[0].band[0].first, 0.04);
}

TEST(Charts, LegendsAreWrappedNeverCut) {
  LineChart c;
  c.title = "t <x>";
  c.log2_x = true;
  c.x_format = AxisFormat::bytes;
  const std::string label = "median of 16 sweeps (band: their minimum to maximum), out-of-place float sum";
  c.series.push_back({label, {{1024, 0.01}, {1 << 20, 2.0}}, false, {}});
  c.ceilings.push_back({"ceiling 3 GB/s", 3.0});
  const std::string svg = svg_line_chart(c);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("t &lt;x&gt;"), std::string::npos);
  EXPECT_NE(svg.find("log scale"), std::string::npos);  // 0.01 .. 3 spans more than 20x
  EXPECT_NE(svg.find(">1K<"), std::string::npos);
  EXPECT_EQ(svg.find('~'), std::string::npos);
  // Every word of the label is drawn, in order, across the legend's lines.
  std::string drawn;
  const std::regex legend_text("class=\"legend\">([^<]*)</text>");
  for (std::sregex_iterator it(svg.begin(), svg.end(), legend_text), end; it != end; ++it) drawn += (*it)[1].str() + " ";
  EXPECT_NE(drawn.find(label), std::string::npos) << drawn;
  LineChart empty;  // no data: still a well-formed chart
  EXPECT_NE(svg_line_chart(empty).find("</svg>"), std::string::npos);
}

TEST(Charts, CategoryMatrixSvg) {
  CategoryMatrix m{"topo", {"GPU0", "mlx5_0"}, {{"X", "SYS"}, {"SYS", "X"}}};
  const std::string ms = svg_category_matrix(m);
  EXPECT_NE(ms.find("#f44336"), std::string::npos);  // SYS in red
  EXPECT_NE(ms.find(">SYS<"), std::string::npos);
}
