// Inputs that used to pass without being judged (issue 31): a duplicate key in any JSON input (spec,
// baseline, report.json, results.jsonl) and a spec pattern whose compilation has no bound.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "tests/support/spec_names.hpp"
#include "report/judge/baseline.hpp"
#include "report/render/outputs.hpp"
#include "report/judge/spec.hpp"
#include "report/judge/spec_match.hpp"

using namespace gpunet::report;

namespace {

namespace fs = std::filesystem;

constexpr const char* kOnce = " (a key may appear once per object; readers disagree on which one counts: remove one)";

// A file under a fresh folder holding `text`; the folder goes when the test ends.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text)
      : dir_(fs::temp_directory_path() / ("gpunet_strict_" + std::to_string(::getpid()) + "_" + name)) {
    fs::create_directories(dir_);
    std::ofstream(dir_ / name) << text;
  }
  ~TempFile() { fs::remove_all(dir_); }
  std::string path() const { return (dir_ / fs::directory_iterator(dir_)->path().filename()).string(); }

 private:
  fs::path dir_;
};

template <class Error, class Load>
std::string error_of(Load&& load) {
  try {
    load();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(SpecDuplicateKey, TheIssueExampleIsRefusedNotDropped) {
  // nlohmann keeps the last "bandwidth" ([]): the failing promise vanished and the run passed.
  const TempFile f("spec.json",
                   R"({"spec_version":2,"bandwidth":[{"suite":"mpi","name":"allreduce","min":1000}],"bandwidth":[]})");
  EXPECT_EQ(error_of<SpecError>([&] { (void)load_spec(f.path(), gpunet::test_support::suite_spec_names()); }),
            f.path() + ": duplicate key \"bandwidth\" at bandwidth" + kOnce);
}

TEST(SpecDuplicateKey, NestedKeysNameTheirPath) {
  const TempFile f("spec.json", R"({"spec_version":2,"nic":{"count":8,"count":1}})");
  EXPECT_EQ(error_of<SpecError>([&] { (void)load_spec(f.path(), gpunet::test_support::suite_spec_names()); }), f.path() + ": duplicate key \"count\" at nic.count" + kOnce);
  const TempFile g("spec.json",
                   R"({"spec_version":2,"bandwidth":[{"suite":"mpi","name":"allreduce","min":1},{"suite":"mpi","min":1,"min":2}]})");
  EXPECT_EQ(error_of<SpecError>([&] { (void)load_spec(g.path(), gpunet::test_support::suite_spec_names()); }),
            g.path() + ": duplicate key \"min\" at bandwidth[1].min" + kOnce);
  // The same key in two objects is no duplicate.
  const TempFile h("spec.json", R"({"spec_version":2,"nic":{"count":1},"bandwidth":[{"suite":"mpi","name":"allreduce","min":1}]})");
  EXPECT_EQ(error_of<SpecError>([&] { (void)load_spec(h.path(), gpunet::test_support::suite_spec_names()); }), "(no error)");
}

TEST(BaselineDuplicateKey, IsRefused) {
  const TempFile f("base.json", R"({"gpunet_baseline": 2, "figures": {"k": {"suite": "mpi"}, "k": {"suite": "tcp"}}})");
  EXPECT_EQ(error_of<BaselineError>([&] { (void)load_baseline(f.path()); }),
            f.path() + ": duplicate key \"k\" at figures.k" + kOnce);
}

TEST(RerenderDuplicateKey, ReportJsonIsRefused) {
  const TempFile f("report.json", R"({"schema_version": 2, "results": [{"suite": "mpi", "name": "a", "status": "passed"},
    {"suite": "mpi", "name": "b", "name": "c", "status": "passed"}]})");
  const LoadedResults r = load_results(f.path());
  EXPECT_FALSE(r.report);
  EXPECT_EQ(r.error, f.path() + ": duplicate key \"name\" at results[1].name" + kOnce);
}

TEST(RerenderDuplicateKey, ResultsJsonlNamesTheLine) {
  const TempFile f("results.jsonl", "{\"suite\": \"mpi\", \"name\": \"a\", \"status\": \"passed\"}\n"
                                    "{\"suite\": \"mpi\", \"name\": \"b\", \"status\": \"passed\", \"status\": \"failed\"}\n");
  const LoadedResults r = load_results(f.path());
  EXPECT_FALSE(r.report);
  EXPECT_EQ(r.error, f.path() + ": line 2: duplicate key \"status\" at status" + kOnce);
}

TEST(BaselineDuplicateKey, FoundInAnObjectOfManyKeys) {
  // Past a few dozen keys an object's keys go into a hash set: a repeat is found on either side of that.
  const auto figures = [](int keys, const std::string& repeated) {
    std::string text = R"({"gpunet_baseline": 2, "figures": {)";
    for (int i = 0; i < keys; ++i) text += "\"k" + std::to_string(i) + "\": {}, ";
    return text + "\"" + repeated + "\": {}, \"last\": {}}}";
  };
  for (const auto& [keys, repeated] : std::vector<std::pair<int, std::string>>{{5, "k3"}, {40, "k3"}, {40, "k39"}, {500, "k250"}}) {
    const TempFile f("base.json", figures(keys, repeated));
    EXPECT_EQ(error_of<BaselineError>([&] { (void)load_baseline(f.path()); }),
              f.path() + ": duplicate key \"" + repeated + "\" at figures." + repeated + kOnce)
        << keys << " keys";
  }
  const TempFile unique("base.json", figures(500, "k500"));
  EXPECT_EQ(error_of<BaselineError>([&] { (void)load_baseline(unique.path()); }).find("duplicate"), std::string::npos);
}

TEST(SpecPattern, NestedCountedRepetitionIsRefusedAtOnce) {
  // glibc's regcomp took 8-32 s and 3.6 GB for this; one more level grew without end.
  const auto start = std::chrono::steady_clock::now();
  const TempFile f("spec.json", R"({"spec_version":2,"nic":{"count":1,"match":"((a{255}){255}){255}"}})");
  EXPECT_EQ(error_of<SpecError>([&] { (void)load_spec(f.path(), gpunet::test_support::suite_spec_names()); }),
            f.path() + ": nic.match: '((a{255}){255}){255}' counted repetitions expand it to more than 2000 states "
                       "(compiling it would take seconds and gigabytes; use fewer or smaller {m,n})");
  EXPECT_FALSE(pattern_found("(((a{255}){255}){255}){255}", "aaaa"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(SpecPattern, BoundsAndOrdinaryPatterns) {
  EXPECT_EQ(pattern_problem("^mlx5_[0-9]+$"), "");
  EXPECT_EQ(pattern_problem("^(eth|ens|enp)[0-9a-z]{1,12}$"), "");
  EXPECT_EQ(pattern_problem("[[:alpha:]]{3}(_[0-9]){2}"), "");
  EXPECT_TRUE(pattern_found("^mlx5_[0-9]+$", "mlx5_3"));
  EXPECT_FALSE(pattern_found("^mlx5_[0-9]+$", "eth0"));
  EXPECT_EQ(pattern_problem("(a{40}){40}"), "");  // 1,600 states: within the bound
  EXPECT_NE(pattern_problem("(a{50}){50}"), "");
  EXPECT_EQ(pattern_problem("(a{1000,})"), "");
  EXPECT_NE(pattern_problem("((a{1000,}){3})"), "");
  EXPECT_EQ(pattern_problem(std::string(257, 'a')), "is 257 bytes long (at most 256; a pattern for interface or device names needs far less)");
  EXPECT_EQ(pattern_problem(std::string(20, '(') + "a" + std::string(20, ')')),
            "nests groups deeper than 16 levels (write a simpler pattern)");
  EXPECT_EQ(pattern_problem("(a)\\1"),
            "holds the back-reference \\1 (not extended regular expression syntax, and matching it takes exponential time; "
            "remove it)");
  EXPECT_EQ(pattern_problem("mlx5_("), "is not a valid regular expression");
  EXPECT_EQ(pattern_problem("[]a]{3}"), "");
}
