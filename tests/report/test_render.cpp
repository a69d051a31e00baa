// Renderer behaviour beyond the golden files: many-rank sweeps summarised, the charts the HTML draws,
// and the SVG helpers.
#include <gtest/gtest.h>

#include "report/analysis.hpp"
#include "report/html_charts.hpp"
#include "report/renderers.hpp"
#include "report/sections.hpp"
#include "report/svg_chart.hpp"

using namespace gpunet::report;
using nlohmann::json;

namespace {

const json kShapedLink = {{"kind", "ethernet"}, {"speed_Mbps", 10000}, {"mtu", 1500}, {"shaped_rate_bps", 1e9}};

// `ranks` per-rank sweeps of a TCP bandwidth test over 3 sizes; rank `slow` reaches half the rate.
Report many_ranks(int ranks, int slow, const std::string& suite = "tcp", const std::string& name = "bw") {
  Report rep;
  for (int k = 0; k < ranks; ++k) {
    char host[32];
    std::snprintf(host, sizeof host, "host-%02d", k);
    rep.provenance.hosts.push_back(host);
    for (int64_t bytes : {1 << 16, 1 << 20, 1 << 24}) {
      Record r;
      r.suite = suite;
      r.name = name;
      r.variant = "to leader";
      r.bytes = bytes;
      r.ranks = ranks;
      r.rank = k;
      r.host = host;
      r.time_us.samples = 10;
      const double g = (k == slow ? 0.45 : 0.93) * static_cast<double>(bytes) / static_cast<double>(bytes + (1 << 18));
      r.extra = {{"link", kShapedLink}, {"goodput_Gbps", g}};
      r.figure = rate_figure(suite == "tcp" ? "tcp.goodput" : suite + "." + name + ".busbw", g, "Gb/s", host_subject(host), PathModel::tcp_link);
      r.figure->parameters = {{"bytes", std::to_string(bytes)}, {"test", r.variant}};
      rep.results.push_back(r);
    }
  }
  analyze(rep);
  return rep;
}

}  // namespace

TEST(Render, ManyRankSweepsAreSummarisedWithTheSlowestShown) {
  const Report rep = many_ranks(12, 7, "mpi", "allreduce");
  const std::string md = render_markdown(rep);
  EXPECT_NE(md.find("### mpi allreduce (to leader), 12 ranks: 12 sweeps, one per rank"), std::string::npos) << md;
  EXPECT_NE(md.find("### Slow: mpi allreduce (to leader), 12 ranks, host-07 rank 7"), std::string::npos);
  EXPECT_EQ(md.find("### mpi allreduce (to leader), 12 ranks, host-03"), std::string::npos);  // not every sweep in full
  // The summary row of the largest size names the slow rank as the slowest.
  const auto row = md.find("| 16777216 |");
  ASSERT_NE(row, std::string::npos);
  EXPECT_NE(md.substr(row, md.find('\n', row) - row).find("host-07 rank 7"), std::string::npos);
  const std::string html = render_html(rep);
  EXPECT_NE(html.find("12 sweeps, one per rank"), std::string::npos);
  EXPECT_NE(html.find("Slow: mpi allreduce (to leader), 12 ranks, host-07 rank 7"), std::string::npos);
  // A few sweeps are shown in full, each.
  const std::string few = render_markdown(many_ranks(3, 1, "mpi", "allreduce"));
  EXPECT_NE(few.find("### mpi allreduce (to leader), 3 ranks, host-00"), std::string::npos);
  EXPECT_EQ(few.find("one per rank"), std::string::npos);
}

TEST(Render, FamilyRowsSpreadAcrossRanks) {
  const Report rep = many_ranks(12, 7);
  const auto groups = sweep_groups(rep);
  const auto families = sweep_families(groups);
  ASSERT_EQ(families.size(), 1u);
  const auto rows = family_rows(families[0]);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].n, 12u);
  EXPECT_EQ(rows[2].slowest->rank, 7);
  EXPECT_LT(rows[2].min, rows[2].median);
  EXPECT_DOUBLE_EQ(rows[2].median, rows[2].max);  // the other 11 are alike
  const auto slowest = family_slowest(families[0], 2);
  ASSERT_EQ(slowest.size(), 2u);
  EXPECT_EQ(slowest[0]->rank, 7);
}

TEST(Render, ChartsOfManySweepsAreMedianAndBand) {
  const auto charts = size_charts(many_ranks(12, 7));
  ASSERT_EQ(charts.size(), 1u);
  ASSERT_EQ(charts[0].series.size(), 1u);
  EXPECT_EQ(charts[0].series[0].label, "median of 12 sweeps (band: min-max)");
  EXPECT_EQ(charts[0].series[0].band.size(), 3u);
  ASSERT_EQ(charts[0].ceilings.size(), 1u);
  EXPECT_NEAR(charts[0].ceilings[0].y, 1448.0 / 1514.0, 1e-9);
  const auto few = size_charts(many_ranks(3, 1));
  ASSERT_EQ(few.size(), 1u);
  EXPECT_EQ(few[0].series.size(), 3u);  // one line per sweep
}

TEST(Render, LineChartSvg) {
  LineChart c;
  c.title = "t <x>";
  c.log2_x = true;
  c.x_format = AxisFormat::bytes;
  c.series.push_back({"a", {{1024, 0.01}, {1 << 20, 2.0}}, false, {}});
  c.ceilings.push_back({"ceiling 3 GB/s", 3.0});
  const std::string svg = svg_line_chart(c);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("t &lt;x&gt;"), std::string::npos);
  EXPECT_NE(svg.find("log scale"), std::string::npos);  // 0.01 .. 3 spans more than 20x
  EXPECT_NE(svg.find(">1K<"), std::string::npos);
  EXPECT_NE(svg.find(">1M<"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
  c.series[0].points = {{1024, 1.0}, {2048, 2.0}};
  EXPECT_EQ(svg_line_chart(c).find("log scale"), std::string::npos);
  LineChart empty;  // no data: still a well-formed chart
  EXPECT_NE(svg_line_chart(empty).find("</svg>"), std::string::npos);
}

TEST(Render, HeatmapAndMatrixSvg) {
  Heatmap h;
  h.title = "pairs";
  h.labels = {"a", "b"};
  h.values = {{std::nullopt, 0.9}, {0.3, std::nullopt}};
  h.fraction = {{std::nullopt, 0.95}, {0.3, std::nullopt}};
  h.unit = "Gb/s";
  const std::string svg = svg_heatmap(h);
  EXPECT_NE(svg.find("hsl(108.0,70%,45%)"), std::string::npos);  // 95% of the ceiling: green
  EXPECT_NE(svg.find("hsl(0.0,70%,45%)"), std::string::npos);    // 30%: red
  EXPECT_NE(svg.find("a -&gt; b: 0.900 Gb/s"), std::string::npos);
  CategoryMatrix m{"topo", {"GPU0", "mlx5_0"}, {{"X", "SYS"}, {"SYS", "X"}}};
  const std::string ms = svg_category_matrix(m);
  EXPECT_NE(ms.find("#f44336"), std::string::npos);  // SYS in red
  EXPECT_NE(ms.find(">SYS<"), std::string::npos);
}
