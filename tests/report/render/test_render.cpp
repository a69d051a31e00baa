// Renderer behaviour beyond the golden files: many-rank sweeps summarised (the charts: test_charts.cpp).
#include <gtest/gtest.h>

#include "report/analysis/analysis.hpp"
#include "report/render/renderers.hpp"
#include "report/analysis/sections.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

const json kShapedGigabitLink = {{"kind", "ethernet"}, {"speed_Mbps", 10000}, {"mtu", 1500}, {"shaped_rate_bps", 1e9}};

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
      r.extra = {{"link", kShapedGigabitLink}, {"goodput_Gbps", g}};
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
