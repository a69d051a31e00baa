// What a run writes at rank 0: checked appends to results.jsonl, the earlier run kept beside the new
// one, checked whole-file writes, and no `passed` record without samples.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/core/earlier_results.hpp"
#include "bench/core/results_sink.hpp"
#include "bench/core/unmeasured.hpp"
#include "report/model/file_write.hpp"

using namespace gpunet::bench;
namespace fs = std::filesystem;
namespace report = gpunet::report;

namespace {

report::Record record(const std::string& suite, const std::string& name, int64_t samples) {
  report::Record r;
  r.suite = suite;
  r.name = name;
  r.bytes = 4096;
  r.time_us.samples = samples;
  return r;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / (name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(ResultsSink, WritesOneLinePerRecord) {
  const auto dir = fresh_dir("sink-ok");
  std::ostringstream err;
  {
    ResultsSink sink((dir / "results.jsonl").string(), err);
    sink.append(record("mpi", "allreduce", 10));
    sink.append(record("mpi", "allgather", 10));
    EXPECT_EQ(sink.lost(), 0u);
    EXPECT_EQ(sink.loss_text(), "");
  }
  const std::string text = read_text(dir / "results.jsonl");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
  EXPECT_EQ(err.str(), "");
  fs::remove_all(dir);
}

// The sink holds no record it wrote: the run's records come back from its file, equal to what was
// appended, in order; a file changed behind the run's back is one error naming it.
TEST(ResultsSink, ReadsTheRecordsBackFromItsFile) {
  const auto dir = fresh_dir("sink-back");
  const auto path = (dir / "results.jsonl").string();
  std::ostringstream err;
  ResultsSink sink(path, err);
  std::vector<report::Record> appended;
  for (int i = 0; i < 3; ++i) {
    report::Record r = record("tcp", "bandwidth", 5);
    r.variant = "matrix";
    r.extra = {{"src_host", "a"}, {"dst_host", "b" + std::to_string(i)}, {"goodput_Gbps", 9.25 + i},
               {"link", {{"iface", "eth0"}, {"mtu", 9000}}}};
    r.figure = report::rate_figure("tcp.goodput", 9.25 + i, "Gb/s", report::pair_subject("a", 0, "b", i + 1),
                                   report::PathModel::tcp_flow);
    r.figure->samples = {9.0, 9.5 + i};
    appended.push_back(r);
    sink.append(r);
  }
  const auto back = sink.records();
  ASSERT_EQ(back.size(), appended.size());
  for (size_t i = 0; i < back.size(); ++i) EXPECT_EQ(gpunet::json(back[i]), gpunet::json(appended[i])) << i;
  std::ofstream(path, std::ios::app) << gpunet::json(appended[0]).dump() << "\n";
  try {
    (void)sink.records();
    ADD_FAILURE() << "a changed file was read back";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + " holds 4 records where the run wrote 3"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

// What a suite's console footer needs is kept from keep_next() to take_kept(), and only that.
TEST(ResultsSink, KeepsInMemoryOnlyWhatItIsAskedToKeep) {
  const auto dir = fresh_dir("sink-kept");
  std::ostringstream err;
  ResultsSink sink((dir / "results.jsonl").string(), err);
  sink.append(record("tcp", "bandwidth", 5));
  sink.keep_next();
  sink.append(record("mpi", "allreduce", 10));
  sink.append(record("mpi", "allgather", 10));
  const auto kept = sink.take_kept();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].name, "allreduce");
  EXPECT_EQ(kept[1].name, "allgather");
  sink.append(record("nccl", "allreduce", 10));
  EXPECT_TRUE(sink.take_kept().empty()) << "kept after take_kept()";
  EXPECT_EQ(sink.records().size(), 4u);
  fs::remove_all(dir);
}

TEST(ResultsSink, AFailedWriteIsSaidAtOnceAndCounted) {
  std::ostringstream err;
  ResultsSink sink("/dev/full", err);  // every write fails with ENOSPC
  sink.append(record("mpi", "allreduce", 10));
  sink.append(record("mpi", "allgather", 10));
  EXPECT_EQ(sink.lost(), 2u);
  EXPECT_EQ(sink.records().size(), 2u) << "kept in memory for the report";
  const std::string said = err.str();
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << "one line, at the first loss: " << said;
  EXPECT_NE(said.find("mpi/allreduce"), std::string::npos) << said;
  EXPECT_NE(said.find("disk is full"), std::string::npos) << said;
  EXPECT_NE(sink.loss_text().find("2 of 2 records"), std::string::npos) << sink.loss_text();
}

TEST(EarlierResults, NameCarriesTheStartTime) {
  EXPECT_EQ(earlier_results_name("out", 1796117460, 1), "out/results-20261201T093100Z.jsonl");
  EXPECT_EQ(earlier_results_name("out", 1796117460, 2), "out/results-20261201T093100Z-2.jsonl");
}

TEST(EarlierResults, KeepsANonEmptyFileAndSkipsAnEmptyOne) {
  const auto dir = fresh_dir("earlier");
  EXPECT_FALSE(keep_earlier_results(dir.string()));
  std::ofstream(dir / "results.jsonl").close();
  EXPECT_FALSE(keep_earlier_results(dir.string())) << "an empty file holds nothing to keep";
  std::ofstream(dir / "results.jsonl") << "{\"suite\":\"mpi\"}\n";
  const auto first = keep_earlier_results(dir.string());
  ASSERT_TRUE(first);
  EXPECT_FALSE(fs::exists(dir / "results.jsonl"));
  EXPECT_EQ(read_text(*first), "{\"suite\":\"mpi\"}\n");
  std::ofstream(dir / "results.jsonl") << "{\"suite\":\"tcp\"}\n";
  const auto second = keep_earlier_results(dir.string());
  ASSERT_TRUE(second);
  EXPECT_NE(*first, *second) << "two runs in one second keep both";
  EXPECT_EQ(read_text(*first), "{\"suite\":\"mpi\"}\n");
  fs::remove_all(dir);
}

TEST(FileWrite, ReplacesWholeAndLeavesNoTemporary) {
  const auto dir = fresh_dir("file-write");
  const auto path = (dir / "report.json").string();
  gpunet::report::write_file_replacing(path, "one\n");
  gpunet::report::write_file_replacing(path, "two\n");
  EXPECT_EQ(read_text(path), "two\n");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  const auto missing = (dir / "no-such-dir" / "x.json").string();
  EXPECT_THROW(gpunet::report::write_file_replacing(missing, "x"), std::runtime_error);
  EXPECT_FALSE(fs::exists(missing + ".tmp"));
  fs::remove_all(dir);
}

TEST(FileWrite, NamesAFullDisk) {
  EXPECT_NE(gpunet::report::write_error_text(ENOSPC).find("disk is full"), std::string::npos);
}

TEST(Unmeasured, PassedTimedRecordWithoutSamplesFails) {
  const auto tcp = fail_if_unmeasured(record("tcp", "latency", 0), pingpong_unmeasured);
  EXPECT_EQ(tcp.status, report::Status::failed);
  EXPECT_NE(tcp.reason.find("--tcp-lat-time"), std::string::npos);
  EXPECT_EQ(fail_if_unmeasured(record("mpi", "allreduce", 0), collective_unmeasured).status, report::Status::failed);
  EXPECT_EQ(fail_if_unmeasured(record("mpi", "allreduce", 5), collective_unmeasured).status, report::Status::passed);
}

TEST(Unmeasured, OtherRecordsAreLeftAlone) {
  EXPECT_EQ(fail_if_unmeasured(record("tcp", "bandwidth", 0), pingpong_unmeasured).status, report::Status::passed);
  EXPECT_EQ(fail_if_unmeasured(record("topo", "node", 0), nullptr).status, report::Status::passed);
  auto skipped = record("mpi", "allreduce", 0);
  skipped.status = report::Status::skipped;
  skipped.reason = "too small";
  EXPECT_EQ(fail_if_unmeasured(skipped, collective_unmeasured).reason, "too small");
}
