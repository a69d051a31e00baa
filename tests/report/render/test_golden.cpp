// Golden files: report.md, report.json, junit.xml and sweeps.csv rendered from the fixed fixture
// (tests/data/report/fixture.json) must match tests/data/report/golden/ byte for byte.
// GPUNET_UPDATE_GOLDEN=1 rewrites the golden files instead (then review the diff before committing).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "gpunet/build_config.h"
#include "report/analysis/analysis.hpp"
#include "report/render/outputs.hpp"
#include "report/judge/verdicts_outputs.hpp"
#include "report/render/renderers.hpp"

using namespace gpunet::report;

namespace {

const std::filesystem::path kData = std::filesystem::path(GPUNET_SOURCE_DIR) / "tests/data/report";

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Report analysed_fixture() {
  auto loaded = load_results((kData / "fixture.json").string());
  EXPECT_TRUE(loaded.report.has_value()) << loaded.error;
  Report rep = loaded.report.value_or(Report{});
  analyze(rep);
  return rep;
}

// Compares with the golden file, or rewrites it when GPUNET_UPDATE_GOLDEN=1. On a mismatch, names the
// first differing line.
void check_golden(const std::string& name, const std::string& actual) {
  const auto path = kData / "golden" / name;
  const char* update = std::getenv("GPUNET_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    std::cout << "updated " << path << "\n";
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing: run with GPUNET_UPDATE_GOLDEN=1";
  const std::string expected = slurp(path);
  if (expected == actual) return;
  std::istringstream e(expected), a(actual);
  std::string le, la;
  for (int line = 1;; ++line) {
    const bool he = static_cast<bool>(std::getline(e, le)), ha = static_cast<bool>(std::getline(a, la));
    if (!he && !ha) break;
    if (le != la || he != ha) {
      FAIL() << name << " differs from " << path << " at line " << line << "\n  expected: " << le
             << "\n  actual:   " << la << "\n(GPUNET_UPDATE_GOLDEN=1 rewrites it after a deliberate change)";
    }
  }
  FAIL() << name << " differs from " << path << " (line endings?)";
}

}  // namespace

TEST(Golden, Markdown) { check_golden("report.md", render_markdown(analysed_fixture())); }
TEST(Golden, Json) { check_golden("report.json", render_json(analysed_fixture())); }
TEST(Golden, Junit) { check_golden("junit.xml", render_junit(analysed_fixture())); }
TEST(Golden, Csv) { check_golden("sweeps.csv", render_csv(analysed_fixture())); }

TEST(Golden, FixtureAnalysisFindsWhatItHides) {
  // Independent of the golden text: the fixture's planted faults are found.
  const Report rep = analysed_fixture();
  const auto& a = rep.extra.at("analysis");
  EXPECT_EQ(a.at("verdict"), "FAIL");
  EXPECT_EQ(a.at("counts").at("failed"), 1);
  EXPECT_EQ(a.at("counts").at("timed_out"), 1);
  EXPECT_EQ(a.at("counts").at("skipped"), 1);
  const std::string md = render_markdown(rep);
  EXPECT_NE(md.find("GPU 1 trained at Gen4 x8 (capable of Gen4 x16): ceiling 15.75 GB/s"), std::string::npos);
  EXPECT_NE(md.find("traffic went over NET/Socket on eth0, a 1GbE interface, not mlx5_0"), std::string::npos);
  EXPECT_NE(md.find("tcp pair node-c->node-a on node-c: 50%"), std::string::npos);
}

TEST(Golden, LoaderTakesAnyKeyOrder) {
  // sorted_keys.json is the analysed fixture as a JSON library writes it: keys sorted, so
  // schema_version comes last and results before it.
  auto sorted = load_results((kData / "sorted_keys.json").string());
  ASSERT_TRUE(sorted.report.has_value()) << sorted.error;
  EXPECT_EQ(sorted.report->results.size(), 30u);
  analyze(*sorted.report);
  EXPECT_EQ(render_json(*sorted.report), render_json(analysed_fixture()));
}

TEST(Golden, JsonRoundTripsThroughTheLoader) {
  const Report rep = analysed_fixture();
  const auto dir = std::filesystem::temp_directory_path() / ("gpunet-golden-" + std::to_string(::getpid()));
  write_analysed_outputs(stored_analysis(rep), dir.string());
  auto again = load_results((dir / "report.json").string());
  ASSERT_TRUE(again.report.has_value()) << again.error;
  analyze(*again.report);
  EXPECT_EQ(render_json(*again.report), render_json(rep));  // analysis is idempotent
  std::filesystem::remove_all(dir);
}
