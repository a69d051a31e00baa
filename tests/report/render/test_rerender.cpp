// Offline re-rendering from report.json and results.jsonl, including cut-off and malformed input;
// and the console progress line.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "gpunet/build_config.h"
#include "report/render/outputs.hpp"
#include "report/render/progress.hpp"

using namespace gpunet::report;
namespace fs = std::filesystem;

namespace {

const std::string kFixture = std::string(GPUNET_SOURCE_DIR) + "/tests/data/report/fixture.json";

}  // namespace

class Rerender : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gpunet-rerender-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The fixture's records as JSON lines.
  std::vector<std::string> fixture_lines() const {
    std::ifstream in(kFixture);
    const auto j = gpunet::json::parse(in);
    std::vector<std::string> lines;
    for (const auto& r : j.at("results")) lines.push_back(r.dump());
    return lines;
  }
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  static gpunet::json read_json(const fs::path& p) {
    std::ifstream in(p);
    return gpunet::json::parse(in);
  }
  // The exit code `report` gives: the stored run's verdict (FAIL 1, INCOMPLETE 4, else 0), as the run did.
  static int verdict_code(const fs::path& out) {
    return read_json(out / "report.json").at("extra").at("run_verdict").at("exit_code").get<int>();
  }
  static size_t lines_of(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

  fs::path dir_;
};

TEST_F(Rerender, FromReportJsonWritesEveryOutput) {
  std::ostringstream err;
  const int code = rerender(kFixture, (dir_ / "out").string(), err);
  ASSERT_EQ(code, verdict_code(dir_ / "out")) << err.str();
  EXPECT_EQ(err.str(), "");
  for (const char* f : kOutputFiles) EXPECT_TRUE(fs::is_regular_file(dir_ / "out" / f)) << f;
  const auto j = read_json(dir_ / "out" / "report.json");
  EXPECT_EQ(j.at("results").size(), 30u);
  EXPECT_EQ(j.at("extra").at("analysis").at("verdict"), "FAIL");
  EXPECT_EQ(j.at("schema_version"), 2);  // read from version 1, written as today's
  EXPECT_TRUE(j.at("results")[0].at("figure").at("ceiling").at("known").get<bool>());
  for (const auto& e : fs::directory_iterator(dir_ / "out"))  // no temporary left behind
    EXPECT_NE(e.path().extension(), ".tmp");
}

TEST_F(Rerender, FromJsonlWithProvenanceLine) {
  std::string text = R"({"provenance": {"hosts": ["node-a", "node-b", "node-c"], "ranks_per_node": [1, 1, 1]}})" "\n";
  for (const auto& l : fixture_lines()) text += l + "\n";
  std::ostringstream err;
  const int code = rerender(write("results.jsonl", text), (dir_ / "out").string(), err);
  ASSERT_EQ(code, verdict_code(dir_ / "out")) << err.str();
  const auto j = read_json(dir_ / "out" / "report.json");
  EXPECT_EQ(j.at("results").size(), 30u);
  EXPECT_EQ(j.at("provenance").at("hosts").size(), 3u);
}

TEST_F(Rerender, TruncatedLastLineIsReportedAndSkipped) {
  const auto lines = fixture_lines();
  std::string text;
  for (size_t i = 0; i + 1 < lines.size(); ++i) text += lines[i] + "\n";
  text += lines.back().substr(0, lines.back().size() / 2);  // the run died mid-write
  std::ostringstream err;
  const int code = rerender(write("results.jsonl", text), (dir_ / "out").string(), err);
  ASSERT_EQ(code, verdict_code(dir_ / "out")) << err.str();
  EXPECT_EQ(lines_of(err.str()), 1u) << err.str();
  EXPECT_NE(err.str().find("line " + std::to_string(lines.size()) + " is incomplete"), std::string::npos) << err.str();
  EXPECT_EQ(read_json(dir_ / "out" / "report.json").at("results").size(), lines.size() - 1);
}

TEST_F(Rerender, MalformedInputIsExitTwoWithOneLine) {
  const auto lines = fixture_lines();
  struct Case {
    std::string name, text, expect;
  };
  const std::vector<Case> cases{
      {"bad-middle.jsonl", lines[0] + "\n{\"suite\": oops\n" + lines[1] + "\n", "line 2 is not valid JSON"},
      {"bad-last-with-newline.jsonl", lines[0] + "\n{\"suite\": \"x\", \n", "line 2 is not valid JSON"},
      {"not-record.jsonl", lines[0] + "\n[1, 2]\n", "line 2 is not a JSON object"},
      {"no-suite.jsonl", "{\"hello\": 1}\n", "line 1 is not a result record"},
      {"bad-status.jsonl", R"({"suite": "mpi", "name": "x", "status": "great"})" "\n", "line 1: status: unknown status 'great'"},
      {"null-host.jsonl", R"({"suite": "mpi", "name": "x", "status": "passed", "host": null})" "\n",
       "line 1: host: expected a string, got null"},
      {"null-value.jsonl",
       R"({"suite": "tcp", "name": "x", "status": "passed", "figure": {"metric": "tcp.goodput", "value": null, "unit": "Gb/s", "subject": {"kind": "cluster"}}})" "\n",
       "line 1: figure.value: expected a number, got null"},
      {"null-value.json",
       R"({"schema_version": 2, "provenance": {}, "results": [{"suite": "tcp", "name": "x", "status": "passed", "figure": {"metric": "tcp.goodput", "value": null, "unit": "Gb/s", "subject": {"kind": "cluster"}}}]})",
       "record 1: figure.value: expected a number, got null"},
      {"null-hosts.json", R"({"schema_version": 2, "provenance": {"hosts": [null]}, "results": []})",
       "provenance.hosts[0]: expected a string, got null"},
      {"blank.jsonl", "\n \n", "holds no result records"},
      {"empty.jsonl", "", "is empty"},
      {"cut-report.json", "{\n  \"schema_version\": 1,\n  \"provenance\": {}, \"results\": [{\"suite\": \"m", "not a valid report.json"},
      {"bad-record.json", R"({"schema_version": 1, "provenance": {}, "results": [{"suite": "m", "name": 5, "status": "passed"}]})",
       "record 1: name is not a string"},
      {"no-status.json", R"({"schema_version": 1, "provenance": {}, "results": [{"suite": "m", "name": "x"}]})",
       "record 1: lacks suite, name or status"},
      {"newer.json", R"({"schema_version": 99, "provenance": {}, "results": []})", "newer gpunet-bench"},
      {"bad-report.json", R"({"schema_version": 1, "provenance": {}, "results": 5})", "not a valid report.json"},
      {"binary.bin", std::string("\x00\x01\x02garbage", 10), "line 1 is not valid JSON"},
  };
  for (const auto& c : cases) {
    std::ostringstream err;
    EXPECT_EQ(rerender(write(c.name, c.text), (dir_ / "out").string(), err), 2) << c.name;
    EXPECT_EQ(lines_of(err.str()), 1u) << c.name << ": " << err.str();
    EXPECT_NE(err.str().find(c.expect), std::string::npos) << c.name << ": " << err.str();
  }
  EXPECT_FALSE(fs::exists(dir_ / "out" / "report.json"));
}

// A results.jsonl larger than a report file may be is read line by line: the same records as the
// whole-file reader gives, the same one-line errors, and a refusal naming report.json for a large one.
TEST_F(Rerender, LargeJsonlIsReadLineByLineWithTheSameResult) {
  std::string text = R"({"provenance": {"hosts": ["node-a", "node-b", "node-c"], "ranks_per_node": [1, 1, 1]}})" "\n";
  for (const auto& l : fixture_lines()) text += l + "\n";
  const auto path = write("results.jsonl", text);
  const auto whole = load_results(path);
  const auto by_line = load_results(path, 16);  // "larger than 16 bytes": the line reader
  ASSERT_TRUE(whole.report && by_line.report) << by_line.error;
  gpunet::json a, b;
  to_json(a, *whole.report), to_json(b, *by_line.report);
  EXPECT_EQ(a, b);
  EXPECT_EQ(by_line.report->results.size(), 30u);

  const auto lines = fixture_lines();
  const auto cut = load_results(write("cut.jsonl", lines[0] + "\n" + lines[1].substr(0, 20)), 16);
  ASSERT_TRUE(cut.report) << cut.error;
  ASSERT_EQ(cut.warnings.size(), 1u);
  EXPECT_NE(cut.warnings[0].find("line 2 is incomplete"), std::string::npos) << cut.warnings[0];
  EXPECT_NE(load_results(write("bad.jsonl", lines[0] + "\n{\"suite\": oops\n"), 16).error.find("line 2 is not valid JSON"),
            std::string::npos);
  const auto report_json = load_results(kFixture, 16);
  EXPECT_NE(report_json.error.find("a report.json may be, and not a results.jsonl (re-render from the run's results.jsonl)"),
            std::string::npos) << report_json.error;
}

// Lines are parsed in batches of about 4 MiB on two threads and taken in file order: across many
// batches the records keep their order, and the first bad line is the one named, whichever reader.
TEST_F(Rerender, ManyBatchesKeepTheirOrderAndTheFirstBadLine) {
  const auto lines = fixture_lines();
  std::string text;
  std::size_t n = 0;
  while (text.size() < (13u << 20)) {  // past three batches
    gpunet::json r = gpunet::json::parse(lines[n % lines.size()]);
    r["variant"] = "v" + std::to_string(n++);  // the order, readable back
    text += r.dump() + "\n";
  }
  const auto path = write("many.jsonl", text);
  for (const std::size_t whole_up_to : {std::size_t{1} << 30, std::size_t{16}}) {
    const auto loaded = load_results(path, whole_up_to);
    ASSERT_TRUE(loaded.report) << loaded.error;
    ASSERT_EQ(loaded.report->results.size(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(loaded.report->results[i].variant, "v" + std::to_string(i));
  }
  // Bad lines in the third batch and in the last: the third batch's is named.
  const std::size_t third = n * 10 / 13, last = n - 2;
  std::string bad;
  std::size_t at = 0;
  for (std::size_t i = 0, begin = 0; i < n; ++i) {
    const std::size_t end = text.find('\n', begin);
    bad += i == third || i == last ? std::string("{\"suite\": oops}") : text.substr(begin, end - begin);
    bad += "\n";
    begin = end + 1;
    if (i == third) at = i + 1;
  }
  const auto bad_path = write("bad-many.jsonl", bad);
  for (const std::size_t whole_up_to : {std::size_t{1} << 30, std::size_t{16}}) {
    const auto loaded = load_results(bad_path, whole_up_to);
    EXPECT_FALSE(loaded.report);
    EXPECT_NE(loaded.error.find(": line " + std::to_string(at) + " is not valid JSON"), std::string::npos) << loaded.error;
  }
}

// A results.jsonl's equal link facts are one object for all the records that carry them (a matrix of
// 1,024 hosts holds a million flows and two links a host); they read and write as they were in extra.
TEST_F(Rerender, EqualLinkFactsAreHeldOnceAndWrittenAsTheyWere) {
  const auto link = [](const std::string& iface, int speed) {
    return gpunet::json{{"iface", iface}, {"kind", "ethernet"}, {"mtu", 9000}, {"speed_Mbps", speed}};
  };
  const auto flow = [](const std::string& src, const std::string& dst, const gpunet::json& own, const gpunet::json& other) {
    return gpunet::json{{"suite", "tcp"},  {"name", "bandwidth"}, {"variant", "matrix"}, {"kind", "tcp_flow"},
                        {"host", dst},     {"status", "passed"},
                        {"extra", {{"src_host", src}, {"dst_host", dst}, {"link", own}, {"dst_link", other}}}};
  };
  const auto a = link("eth0", 100000), b = link("eth0", 25000), c = link("eth1", 100000);
  const std::vector<gpunet::json> written = {flow("a", "b", a, b), flow("a", "c", a, c), flow("b", "a", b, a)};
  std::string text;
  for (const auto& r : written) text += r.dump() + "\n";
  const auto path = write("links.jsonl", text);
  for (const std::size_t whole_up_to : {std::size_t{1} << 30, std::size_t{16}}) {
    const auto loaded = load_results(path, whole_up_to);
    ASSERT_TRUE(loaded.report) << loaded.error;
    const auto& r = loaded.report->results;
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0].link.get(), r[1].link.get());      // a's link, twice
    EXPECT_EQ(r[0].link.get(), r[2].dst_link.get());  // and as a receiver's
    EXPECT_EQ(r[0].dst_link.get(), r[2].link.get());  // b's
    EXPECT_NE(r[1].dst_link.get(), r[0].dst_link.get());  // c's facts differ from b's
    EXPECT_FALSE(r[0].extra.contains("link"));
    EXPECT_EQ(link_facts(r[1], LinkEnd::destination), c);
    EXPECT_EQ(link_facts(r[2], LinkEnd::own), b);
    for (std::size_t i = 0; i < r.size(); ++i) EXPECT_EQ(gpunet::json(r[i]).at("extra"), written[i].at("extra"));
  }
  // report.json holds them in extra, as the lines did, and reads back the same.
  std::ostringstream err;
  ASSERT_NE(rerender(path, (dir_ / "out").string(), err), 2) << err.str();
  const auto results = read_json(dir_ / "out" / "report.json").at("results");
  ASSERT_EQ(results.size(), 3u);
  for (std::size_t i = 0; i < results.size(); ++i) EXPECT_EQ(results[i].at("extra"), written[i].at("extra"));
  // A record built in this process keeps them in extra: link_facts finds them there.
  Record built;
  built.extra = written[0].at("extra");
  EXPECT_EQ(link_facts(built, LinkEnd::own), a);
  EXPECT_EQ(link_facts_at(built, LinkEnd::destination), &built.extra.at("dst_link"));
  EXPECT_EQ(link_facts_at(Record{}, LinkEnd::own), nullptr);
}

TEST(InputLines, LinesAcrossReadsAndTheLineLimit) {
  const auto path = (fs::temp_directory_path() / ("gpunet-lines-" + std::to_string(::getpid()))).string();
  {
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 20000; ++i) out << std::string(1000, static_cast<char>('a' + i % 26)) << i << "\n";  // 20 MB: past one 16 MiB read
    out << "last";
  }
  struct Err : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  int n = 0;
  bool all_whole = true, last_without_newline = false;
  gpunet::read_input_lines<Err>(path, {"results file", 4096}, [&](std::string_view line, bool has_newline) {
    if (has_newline) all_whole = all_whole && line == std::string(1000, static_cast<char>('a' + n % 26)) + std::to_string(n);
    else last_without_newline = line == "last";
    ++n;
    return true;
  });
  EXPECT_EQ(n, 20001);
  EXPECT_TRUE(all_whole);
  EXPECT_TRUE(last_without_newline);
  try {
    gpunet::read_input_lines<Err>(path, {"results file", 512}, [](std::string_view, bool) { return true; });
    ADD_FAILURE() << "a line over the limit was read";
  } catch (const Err& e) {
    EXPECT_NE(std::string(e.what()).find(": line 1 is larger than the 512 bytes a line of a results file may be"), std::string::npos)
        << e.what();
  }
  fs::remove(path);
}

TEST_F(Rerender, MissingInputAndUnwritableOutput) {
  std::ostringstream err;
  EXPECT_EQ(rerender((dir_ / "nope.json").string(), (dir_ / "out").string(), err), 2);
  EXPECT_NE(err.str().find("nope.json: no such file (check the path)"), std::string::npos) << err.str();
  std::ostringstream err2;
  const auto file = write("a-file", "x");
  EXPECT_EQ(rerender(kFixture, file + "/sub", err2), 2);
  EXPECT_EQ(lines_of(err2.str()), 1u) << err2.str();
  EXPECT_NE(err2.str().find("cannot create the output directory"), std::string::npos) << err2.str();
}

TEST_F(Rerender, WriteAllOutputsAnalysesACopy) {
  auto loaded = load_results(kFixture);
  ASSERT_TRUE(loaded.report);
  const Report rep = *loaded.report;
  write_all_outputs(rep, (dir_ / "live").string(), AnalysisOptions{0.5, 1.02});
  EXPECT_FALSE(rep.extra.contains("analysis"));  // the caller's report is untouched
  const auto j = read_json(dir_ / "live" / "report.json");
  EXPECT_DOUBLE_EQ(j.at("extra").at("analysis").at("threshold").get<double>(), 0.5);
  EXPECT_THROW(write_all_outputs(rep, write("plain-file", "x")), std::runtime_error);
}

TEST(Progress, LineAndEstimate) {
  Progress p{"nccl", "allreduce", 64 << 20, 12, 30, 26.0, std::nullopt};
  EXPECT_EQ(progress_line(p), "[nccl] allreduce 64 MiB  12/30 (40%)  about 39s left");
  p.remaining_s = 3725;
  EXPECT_EQ(progress_line(p), "[nccl] allreduce 64 MiB  12/30 (40%)  about 1h02m left");
  EXPECT_EQ(progress_line(Progress{"tcp", "matrix", 0, 3, 0, 5.0, std::nullopt}), "[tcp] matrix  3 done");
  EXPECT_EQ(progress_line(Progress{"mpi", "", 1024, 0, 10, 0.0, std::nullopt}), "[mpi] 1 KiB  0/10 (0%)");
  EXPECT_EQ(progress_line(Progress{"mpi", "x", 0, 1, 2, 65.0, std::nullopt}), "[mpi] x  1/2 (50%)  about 1m05s left");
  EXPECT_FALSE(estimate_remaining_s(0, 10, 5).has_value());
  EXPECT_FALSE(estimate_remaining_s(11, 10, 5).has_value());
  EXPECT_DOUBLE_EQ(*estimate_remaining_s(5, 10, 5), 5.0);
}

TEST(Progress, PrintsOnlyToATerminal) {
  const Progress p{"nccl", "allreduce", 0, 1, 2, 1.0, std::nullopt};
  std::ostringstream quiet, tty;
  EXPECT_FALSE(print_progress(quiet, false, p));
  end_progress(quiet, false);
  EXPECT_EQ(quiet.str(), "");
  EXPECT_TRUE(print_progress(tty, true, p));
  end_progress(tty, true);
  EXPECT_EQ(tty.str(), "\r[nccl] allreduce  1/2 (50%)  about 1s left\x1b[K\n");
}
