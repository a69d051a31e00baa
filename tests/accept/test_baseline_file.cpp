// The baseline file: its round trip, what a malformed one says, a file read figure by figure, the text a
// figure is written as, and the text the run history keeps.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <unistd.h>

#include "tests/support/baseline_runs.hpp"
#include "common/input_file.hpp"
#include "report/judge/baseline.hpp"

using namespace gpunet::report;
using gpunet::json;
using namespace gpunet::test_support;

TEST(Baseline, FileRoundTrip) {
  const auto base = make_base(run(1));
  const auto dir = std::filesystem::temp_directory_path() / ("gpunet_base_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "b.json").string();
  const std::size_t written = save_baseline(path, base);
  EXPECT_EQ(written, std::filesystem::file_size(path));
  const auto back = load_baseline(path);
  EXPECT_EQ(baseline_to_json(back), baseline_to_json(base));
  EXPECT_EQ(back.figures.size(), 48u);
  // 1000 samples are stored as 256 quantiles; the total is kept.
  const auto& big = back.figures.at("mpi/allreduce/case32/1024B/np4 p50");
  EXPECT_EQ(big.samples.size(), kMaxStoredSamples);
  EXPECT_EQ(big.samples_total, 1000);
  EXPECT_THROW(save_baseline((dir / "no/such/dir/b.json").string(), base), BaselineError);
  std::filesystem::remove_all(dir);
}

// An all-pairs matrix of 1,024 hosts saves a 384 MiB baseline, which --baseline reads; one of some 1,500
// hosts would not, and that is said when it is saved.
TEST(Baseline, OneLargerThanBaselineReadsIsSaidWhenSaved) {
  EXPECT_EQ(baseline_too_large("b.json", gpunet::kBaselineInput.max_bytes), std::nullopt);
  EXPECT_EQ(baseline_too_large("b.json", 384 * gpunet::kMiB), std::nullopt);
  const auto said = baseline_too_large("b.json", 1100 * gpunet::kMiB + 7);
  ASSERT_TRUE(said);
  EXPECT_EQ(*said, "b.json is 1100 MiB, more than the 1024 MiB a baseline file may be: --baseline will refuse it; "
                   "save the baseline of a run this size from a sampled matrix (--tcp-pairs random:K)");
}

TEST(Baseline, MalformedFilesGiveOneLine) {
  EXPECT_EQ(baseline_error_of(R"({"schema_version": 1, "results": []})"),
            "base.json: gpunet_baseline: missing (this is not a gpunet-bench baseline; make one with --save-baseline)");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 1, "figures": {}})"),
            "base.json: gpunet_baseline: 1 was written by an older gpunet-bench that keyed figures by the bytes a flow "
            "received; re-save it from its run: gpunet-bench report RUN/report.json --save-baseline base.json");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 3, "figures": {}})"),
            "base.json: gpunet_baseline: 3 is not supported (this program reads version 2)");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 2})"), "base.json: figures: missing (required)");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 2, "figures": {"k": {"suite": "mpi", "test": "x", "metric": "time_us.p50",
              "value": "fast"}}})"),
            R"(base.json: figures.k.value: expected a number, got "fast")");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 2, "figures": {"k": {"suite": "mpi", "test": "x", "colour": 1}}})"),
            "base.json: figures.k.colour: unknown key (known here: suite, test, kind, metric, subject, unit, hosts, "
            "higher_is_better, value, min, samples, samples_total, samples_from, history, rail)");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 2, "rule": {"alpha": 2}, "figures": {}})"),
            "base.json: rule.alpha: 2 is out of range (expected > 0 and <= 0.5)");
  EXPECT_EQ(baseline_error_of(R"({"gpunet_baseline": 2, "rule": {"min_samples": 1}, "figures": {}})"),
            "base.json: rule.min_samples: 1 is out of range (expected 3 to 1000000)");
  try {
    load_baseline("/nonexistent/base.json");
    FAIL();
  } catch (const BaselineError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/base.json: no such file (check the path)");
  }
}

// load_baseline reads each figure as it is parsed (a million at 1,024 hosts); a file says what is wrong
// with it as the whole tree would, and the file save_baseline writes holds what baseline_to_json does.
TEST(Baseline, AFileReadFigureByFigureSaysWhatTheTreeWould) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpunet_stream_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "base.json").string();
  const auto file_error = [&](const std::string& text) {
    std::ofstream(path) << text;
    try {
      load_baseline(path);
    } catch (const BaselineError& e) {
      std::string what = e.what();
      for (auto at = what.find(path); at != std::string::npos; at = what.find(path)) what.replace(at, path.size(), "base.json");
      return what;
    }
    return std::string("(no error)");
  };
  for (const std::string text : {
           R"({"gpunet_baseline": 2, "figures": {"k": {"suite": "mpi", "test": "x", "metric": "m", "value": "fast"}}})",
           R"({"figures": {"k": {"suite": "mpi", "test": "x", "bytes": 5}}, "gpunet_baseline": 1})",
           R"({"figures": {"k": {"suite": "mpi", "test": "x", "colour": 1}}, "gpunet_baseline": 2})",
           R"({"figures": {"k": 5}, "gpunet_baseline": 2})",
           R"({"figures": {"k": [1]}, "gpunet_baseline": 2})",
           R"({"figures": [], "gpunet_baseline": 2})",
           R"({"figures": {"a": {"suite": "mpi", "test": "x", "metric": "m", "value": 1}, "b": {"suite": "mpi", "test": "x", "metric": "m",
                 "value": 2, "samples": [1, "x"]}}, "gpunet_baseline": 2})",
       }) {
    EXPECT_EQ(file_error(text), baseline_error_of(text)) << text;
    EXPECT_NE(file_error(text), "(no error)") << text;
  }
  EXPECT_EQ(file_error(R"({"gpunet_baseline": 2, "figures": {"k": {"suite": "mpi", "test": "x", "metric": "m", "value": 1},
                           "k": {"suite": "mpi", "test": "x", "metric": "m", "value": 2}}})"),
            "base.json: duplicate key \"k\" at figures.k (a key may appear once per object; readers disagree on which one counts: remove one)");

  const auto base = make_base(run(1));
  std::ostringstream written;
  write_baseline(written, base);
  const std::string text = written.str();
  EXPECT_EQ(json::parse(text), baseline_to_json(base));
  // The figures one per line: 48 lines of them, after the header's lines and before the two closing.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 16 + 48 + 2) << text.substr(0, 800);
  save_baseline(path, base);
  EXPECT_EQ(baseline_to_json(load_baseline(path)), baseline_to_json(base));
  Baseline empty;
  std::ostringstream none;
  write_baseline(none, empty);
  EXPECT_EQ(json::parse(none.str()), baseline_to_json(empty));
  std::filesystem::remove_all(dir);
}

// write_baseline writes each figure as text, not through a JSON tree: byte for byte what the tree's dump
// writes, for the numbers and strings it formats its own way, and the same error for invalid UTF-8.
TEST(Baseline, AFigureWrittenAsTextIsWhatItsTreeWrites) {
  Baseline b = make_base(run(1));
  BaselineFigure odd;
  odd.suite = "tcp", odd.test = "bandwidth", odd.kind = "matrix", odd.metric = "goodput", odd.unit = "Gb/s";
  odd.subject = "h\xc3\xa9te-1 \u2192 \"h2\"\\\t";  // UTF-8, a quote, a backslash, a control character
  odd.hosts = {"h\xc3\xa9te-1", "h2"};
  odd.higher_is_better = false;
  odd.value = std::nan(""), odd.min = -0.0;
  odd.samples = {3.0, 0.1 + 0.2, 1e300, -1e-7, std::numeric_limits<double>::infinity(), 123456789012345678.0};
  odd.samples_total = 9000000000LL, odd.samples_from = "timeline";
  odd.history = {1.0, 2.5};
  odd.rail = 3;
  b.figures["odd \xe2\x86\x92 key"] = odd;
  b.figures["empty"] = BaselineFigure{};
  const json tree = baseline_to_json(b);
  json head = tree;
  head.erase("figures");
  const std::string head_text = head.dump(1);
  std::string expected = head_text.substr(0, head_text.size() - 2) + ",\n \"figures\": {";
  const char* between = "\n  ";
  for (const auto& [key, f] : tree.at("figures").items()) {
    expected += between + json(key).dump() + ": " + f.dump();
    between = ",\n  ";
  }
  expected += "\n }\n}\n";
  std::ostringstream written;
  write_baseline(written, b);
  EXPECT_EQ(written.str(), expected);

  b.figures["odd \xe2\x86\x92 key"].subject = "bad \xff byte";
  std::ostringstream refused;
  EXPECT_THROW(write_baseline(refused, b), json::type_error);
  EXPECT_THROW((void)baseline_to_json(b).dump(), json::type_error);
}

// The run history keeps each run's baseline as the file's text and reads it back figure by figure.
TEST(Baseline, ATextKeptInTheHistoryReadsBackAsTheBaseline) {
  const auto base = make_base(run(1));
  const std::string text = baseline_text(base);
  std::ostringstream written;
  write_baseline(written, base);
  EXPECT_EQ(text, written.str());
  EXPECT_EQ(baseline_to_json(baseline_from_text(text, "h.sqlite run r1")), baseline_to_json(base));
  const auto error_of = [](const std::string& t) {
    try {
      baseline_from_text(t, "h.sqlite run r1");
    } catch (const BaselineError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error_of(text.substr(0, text.size() / 2)).rfind("h.sqlite run r1: not valid JSON: ", 0), 0u);
  const std::string bad = R"({"figures": {"k": {"suite": "mpi", "test": "x", "colour": 1}}, "gpunet_baseline": 2})";
  EXPECT_EQ(error_of(bad), baseline_error_of(bad).replace(0, std::string("base.json").size(), "h.sqlite run r1"));
}
