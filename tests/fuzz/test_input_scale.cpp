// Large but legal inputs are read, analysed and rendered in time linear in the file: a baseline of
// 20,000 figures (20,000 of them with one key), a report of 3,000 results, one figure with 100,000
// samples, 500 copies of a results.jsonl. Each step's bound is generous (a linear step takes well under
// a second on a release build, a few on the sanitizer build); a step quadratic in records or samples
// takes minutes at these sizes (make_baseline numbering 20,000 equal keys took over 10 minutes), so
// the bound catches it without depending on the machine's load.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "report/judge/baseline.hpp"
#include "report/render/outputs.hpp"
#include "report/judge/verdicts_outputs.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace gpunet::fuzz {
namespace {

namespace fs = std::filesystem;
using gpunet::json;

constexpr double kStepLimitS = 60;

class ScaleStopwatch {
 public:
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

report::Report scale_fixture() {
  auto loaded = report::load_results((source_dir() / "tests/data/report/fixture.json").string());
  EXPECT_TRUE(loaded.report.has_value()) << loaded.error;
  return loaded.report ? *loaded.report : report::Report{};
}

// The fixture's records repeated up to `count`: many records with one identity, the worst case for
// anything that numbers or groups equal keys.
report::Report repeated_fixture(std::size_t count) {
  report::Report rep = scale_fixture();
  const auto base = rep.results;
  rep.results.clear();
  for (std::size_t i = 0; i < count; ++i) rep.results.push_back(base[i % base.size()]);
  return rep;
}

// Load, analyse and write every output, as `gpunet-bench report PATH -o DIR` does.
void render_everything(const std::string& path, const std::string& out) {
  report::LoadedResults loaded = report::load_results(path);
  ASSERT_TRUE(loaded.report.has_value()) << loaded.error;
  report::analyze(*loaded.report);
  report::write_analysed_outputs(report::stored_analysis(std::move(*loaded.report)), out);
}

TEST(InputScale, BaselineOfTwentyThousandFigures) {
  ScratchDir dir("baseline");
  report::Report rep = repeated_fixture(20000);
  // One mpi record as 20,000 records with one figure key: numbered KEY, KEY #2, ... KEY #20000.
  const auto mpi = std::find_if(rep.results.begin(), rep.results.end(), [](const report::Record& r) { return r.suite == "mpi"; });
  ASSERT_NE(mpi, rep.results.end());
  const report::Record one = *mpi;
  for (auto& r : rep.results) r = one;
  ScaleStopwatch make;
  const report::Baseline b = report::make_baseline(rep);
  EXPECT_LT(make.seconds(), kStepLimitS) << "make_baseline of 20,000 figures with one key";
  ASSERT_GE(b.figures.size(), 20000u);
  EXPECT_TRUE(std::any_of(b.figures.begin(), b.figures.end(), [](const auto& kv) { return kv.first.ends_with(" #20000"); }));
  const std::string path = (dir.path / "baseline.json").string();
  report::save_baseline(path, b);
  ScaleStopwatch load;
  const report::Baseline back = report::load_baseline(path);
  const auto cmp = report::compare(back, b);
  EXPECT_LT(load.seconds(), kStepLimitS) << "load and compare a baseline of 20,000 figures";
  EXPECT_EQ(back.figures.size(), b.figures.size());
  (void)cmp;
}

TEST(InputScale, ReportOfThreeThousandResults) {
  ScratchDir dir("report");
  const std::string path = (dir.path / "report.json").string();
  write_text(path, json(repeated_fixture(3000)).dump());
  ScaleStopwatch watch;
  render_everything(path, (dir.path / "out").string());
  EXPECT_LT(watch.seconds(), kStepLimitS) << "report of 3,000 results";
}

TEST(InputScale, OneFigureWithAHundredThousandSamples) {
  ScratchDir dir("samples");
  report::Report rep = scale_fixture();
  report::Figure f;
  f.metric = "tcp.goodput";
  f.unit = "Gb/s";
  f.value = 9.5;
  f.subject.kind = report::SubjectKind::pair;
  f.subject.host = "node1";
  f.subject.dst_host = "node2";
  for (int i = 0; i < 100000; ++i) f.samples.push_back(9 + (i % 97) / 97.0);
  ASSERT_FALSE(rep.results.empty());
  rep.results.front().figure = f;
  const std::string path = (dir.path / "report.json").string();
  write_text(path, json(rep).dump());
  ScaleStopwatch watch;
  render_everything(path, (dir.path / "out").string());
  report::LoadedResults loaded = report::load_results(path);
  ASSERT_TRUE(loaded.report.has_value()) << loaded.error;
  const std::string baseline = (dir.path / "baseline.json").string();
  report::save_baseline(baseline, report::make_baseline(*loaded.report));
  (void)report::load_baseline(baseline);
  EXPECT_LT(watch.seconds(), kStepLimitS) << "one figure with 100,000 samples";
}

TEST(InputScale, FiveHundredCopiesOfAResultsJsonl) {
  ScratchDir dir("jsonl");
  const report::Report rep = scale_fixture();
  std::string once = json{{"provenance", rep.provenance}}.dump() + "\n";
  for (const auto& r : rep.results) once += json(r).dump() + "\n";
  std::string text;
  for (int i = 0; i < 500; ++i) text += once;
  const std::string path = (dir.path / "results.jsonl").string();
  write_text(path, text);
  ScaleStopwatch watch;
  report::LoadedResults loaded = report::load_results(path);
  if (loaded.report) {  // read, or refused with one line; either way within the bound (rendering 15,000
    report::analyze(*loaded.report);  // records is the report test's and render_bench.sh's to bound)
  } else {
    EXPECT_EQ(message_problem(loaded.error, path), "");
  }
  EXPECT_LT(watch.seconds(), kStepLimitS) << "500 copies of a results.jsonl";
}

}  // namespace
}  // namespace gpunet::fuzz
