// The history file: runs in and out, a run added twice, schema migration, and files it refuses.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "report/history/history_store.hpp"

namespace gpunet::report::history {
namespace {

namespace fs = std::filesystem;

class HistoryStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/history_store_test.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const char* name) const { return dir_ + "/" + name; }
  std::string dir_;
};

HistoryRun sample_run(const std::string& id, int64_t epoch, const std::string& verdict = "PASS") {
  HistoryRun r;
  r.run_id = id;
  r.start_time = "t" + id;
  r.start_epoch = epoch;
  r.verdict = verdict;
  r.baseline = "{}";
  HistoryFigure f;
  f.metric = "tcp.goodput", f.subject = "pair:a/0->b/1", f.subject_label = "a:0 -> b:1";
  f.parameters = "test=matrix", f.value = 9.1, f.unit = "Gb/s", f.ceiling = 9.4, f.efficiency = 9.1 / 9.4, f.verdict = "OK";
  r.figures.push_back(f);
  f.metric = "tcp.latency", f.value = 20, f.unit = "us", f.higher_is_better = false, f.ceiling.reset(), f.efficiency.reset();
  r.figures.push_back(f);
  return r;
}

// Runs SQL on a file with SQLite itself (another program's file, an older or newer schema).
void run_sql(const std::string& file, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

std::string refusal(const std::string& file, HistoryStore::Mode mode) {
  try {
    HistoryStore store(file, mode);
  } catch (const HistoryError& e) {
    return e.what();
  }
  return "";
}

TEST_F(HistoryStoreTest, RunsGoInAndComeBack) {
  {
    HistoryStore store(path("h.sqlite"), HistoryStore::Mode::write);
    EXPECT_EQ(store.schema_version(), kHistorySchemaVersion);
    EXPECT_TRUE(store.add_run(sample_run("b", 200)));
    EXPECT_TRUE(store.add_run(sample_run("a", 100, "FAIL")));
    EXPECT_FALSE(store.add_run(sample_run("b", 200)));  // the same run again adds nothing
  }
  const HistoryStore store(path("h.sqlite"), HistoryStore::Mode::read);
  EXPECT_EQ(store.run_count(), 2);
  const auto rows = store.figures(0);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].run_id, "a");  // oldest first
  EXPECT_EQ(rows[0].run_verdict, "FAIL");
  EXPECT_EQ(rows[0].figure.ceiling, 9.4);
  EXPECT_FALSE(rows[1].figure.ceiling);
  EXPECT_FALSE(rows[1].figure.higher_is_better);
  EXPECT_EQ(store.figures(150).size(), 2u);
  const auto good = store.good_runs(0, 5);  // the FAIL run is no baseline
  ASSERT_EQ(good.size(), 1u);
  EXPECT_EQ(good[0].run_id, "b");
}

TEST_F(HistoryStoreTest, OlderSchemaIsMigratedKeepingItsRuns) {
  {
    HistoryStore v1(path("h.sqlite"), HistoryStore::Mode::write, 1);
    EXPECT_EQ(v1.schema_version(), 1);
    v1.add_run(sample_run("a", 100));
  }
  EXPECT_EQ(HistoryStore(path("h.sqlite"), HistoryStore::Mode::read).schema_version(), 1);  // reading changes nothing
  HistoryStore now(path("h.sqlite"), HistoryStore::Mode::write);
  EXPECT_EQ(now.schema_version(), kHistorySchemaVersion);
  EXPECT_EQ(now.run_count(), 1);
  EXPECT_EQ(now.figures(0).size(), 2u);
}

TEST_F(HistoryStoreTest, RefusesWhatIsNoHistory) {
  const auto random = path("random.sqlite");
  std::ofstream(random) << std::string(4096, '\x5a') << "not sqlite";
  EXPECT_NE(refusal(random, HistoryStore::Mode::read).find("random.sqlite: not an SQLite database"), std::string::npos);
  EXPECT_NE(refusal(random, HistoryStore::Mode::write).find("not an SQLite database"), std::string::npos);

  const auto foreign = path("foreign.sqlite");
  run_sql(foreign, "CREATE TABLE runs(x); INSERT INTO runs VALUES(1);");
  EXPECT_NE(refusal(foreign, HistoryStore::Mode::write).find("another program"), std::string::npos);

  const auto newer = path("newer.sqlite");
  run_sql(newer, "PRAGMA application_id=1735423330; PRAGMA user_version=99; CREATE TABLE t(x);");
  EXPECT_NE(refusal(newer, HistoryStore::Mode::write).find("newer gpunet-bench (history schema 99"), std::string::npos);

  EXPECT_NE(refusal(path("missing.sqlite"), HistoryStore::Mode::read).find("no such file"), std::string::npos);
  EXPECT_NE(refusal(dir_, HistoryStore::Mode::write).find("not a regular file"), std::string::npos);
  std::ofstream(path("empty.sqlite")).flush();
  EXPECT_NE(refusal(path("empty.sqlite"), HistoryStore::Mode::read).find("holds no runs yet"), std::string::npos);
  EXPECT_EQ(refusal(path("empty.sqlite"), HistoryStore::Mode::write), "");  // an empty file becomes a history
}

}  // namespace
}  // namespace gpunet::report::history
