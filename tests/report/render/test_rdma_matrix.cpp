// The RDMA pair matrix end to end from a stored report: tests/data/report/rdma_matrix.json
// (make_rdma_matrix.py: --rdma-mode matrix on four nodes, rdma-node2's port at 4x EDR, the others at
// 4x HDR) re-rendered as `gpunet-bench report` does, then report.md's matrix, rdma_matrix.csv and
// report.html's heatmap read back: exactly the slow node's row and column stand out, each cell is its
// pair's WRITE bandwidth, and each is near its own port's ceiling.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "gpunet/build_config.h"
#include "report/render/outputs.hpp"
#include "tests/report/md_table_parse.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kRdmaFixture = std::string(GPUNET_SOURCE_DIR) + "/tests/data/report/rdma_matrix.json";
constexpr int kSlowNode = 2;

std::string rdma_slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool involves_slow(int a, int b) { return a == kSlowNode || b == kSlowNode; }
std::string rdma_host(int i) { return "rdma-node" + std::to_string(i); }

class RdmaMatrix : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    out_ = new fs::path(fs::temp_directory_path() / ("gpunet-rdma-matrix-" + std::to_string(::getpid())));
    fs::remove_all(*out_);
    std::ostringstream err;
    ASSERT_EQ(gpunet::report::rerender(kRdmaFixture, out_->string(), err), 0) << err.str();
  }
  static void TearDownTestSuite() {
    fs::remove_all(*out_);
    delete out_;
  }
  // The WRITE bandwidth of each pair as the fixture stores it: (sender, receiver) -> Gb/s.
  static std::map<std::pair<int, int>, double> measured() {
    std::map<std::pair<int, int>, double> out;
    const auto fixture = gpunet::json::parse(rdma_slurp(kRdmaFixture));
    for (const auto& r : fixture.at("results"))
      if (r.at("name") == "write_bw")
        out[{r["figure"]["subject"]["rank"].get<int>(), r["figure"]["subject"]["dst_rank"].get<int>()}] = r["figure"]["value"];
    return out;
  }
  static fs::path* out_;
};
fs::path* RdmaMatrix::out_ = nullptr;

TEST_F(RdmaMatrix, MarkdownMatrixHasEachPairOnceWithItsEfficiency) {
  const gpunet::report::testing::MdTableSeen* m = nullptr;
  const auto tables = gpunet::report::testing::parse_tables(rdma_slurp(*out_ / "report.md"));
  for (const auto& t : tables)
    if (t.heading.rfind("RDMA pair matrix", 0) == 0) m = &t;
  ASSERT_NE(m, nullptr) << "no RDMA pair matrix in report.md";
  ASSERT_EQ(m->header.size(), 5u);
  EXPECT_EQ(m->header[1], "rdma-node0 (Gb/s, %)");
  ASSERT_EQ(m->rows.size(), 4u);
  const auto bw = measured();
  ASSERT_EQ(bw.size(), 6u);
  const std::regex cell_text(R"(([\d.]+) \((\d+)\))");
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(m->rows[static_cast<size_t>(s)][0], rdma_host(s));
    for (int d = 0; d < 4; ++d) {
      const std::string& cell = m->rows[static_cast<size_t>(s)][static_cast<size_t>(d) + 1];
      const auto it = bw.find({s, d});
      if (it == bw.end()) {  // the suite runs each pair once, lower rank sending
        EXPECT_EQ(cell, "") << rdma_host(s) << " -> " << rdma_host(d);
        continue;
      }
      std::smatch got;
      ASSERT_TRUE(std::regex_match(cell, got, cell_text)) << cell;
      EXPECT_NEAR(std::stod(got[1]), it->second, 0.05) << rdma_host(s) << " -> " << rdma_host(d);
      EXPECT_GE(std::stoi(got[2]), 90) << "each pair is near its own port's ceiling: " << cell;
    }
  }
  const std::string csv = rdma_slurp(*out_ / "rdma_matrix.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "sender_receiver,rdma_node0_Gb_s,rdma_node1_Gb_s,rdma_node2_Gb_s,rdma_node3_Gb_s");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4);
}

TEST_F(RdmaMatrix, HeatmapMarksExactlyTheSlowNodesRowAndColumn) {
  const std::string html = rdma_slurp(*out_ / "report.html");
  const std::regex pair_cell(R"re(<g class="pair (\w+)" data-src="rdma-node(\d)" data-dst="rdma-node(\d)" data-unit="Gb/s" data-value="([\d.e+-]+)")re");
  const auto bw = measured();
  int seen = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), pair_cell); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    const int s = std::stoi(m[2]), d = std::stoi(m[3]);
    ++seen;
    EXPECT_EQ(m[1].str(), involves_slow(s, d) ? "bad" : "good") << rdma_host(s) << " -> " << rdma_host(d);
    ASSERT_TRUE(bw.count({s, d})) << rdma_host(s) << " -> " << rdma_host(d) << " is no measured pair";
    EXPECT_NEAR(std::stod(m[4]), bw.at({s, d}), 1e-6);
  }
  EXPECT_EQ(seen, 6) << "one heatmap cell per measured pair";
  EXPECT_NE(html.find("rdma bw of the matrix flows at 8 MiB"), std::string::npos) << "the heatmap's title";
  EXPECT_EQ(html.find("Not drawn: rdma pair heatmap"), std::string::npos);
}

}  // namespace
