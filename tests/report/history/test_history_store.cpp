// The history file: runs in and out, a run added twice, schema migration, and files it refuses.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "report/history/deflated_text.hpp"
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

// The number of rows of a table, read with SQLite itself.
int64_t rows_of(const std::string& file, const std::string& table) {
  sqlite3* db = nullptr;
  sqlite3_stmt* s = nullptr;
  int64_t n = -1;
  if (sqlite3_open(file.c_str(), &db) == SQLITE_OK &&
      sqlite3_prepare_v2(db, ("SELECT count(*) FROM " + table).c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
    n = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  sqlite3_close(db);
  return n;
}

// A run as gpunet-bench wrote it with schema 2: each figure row names its metric, subject and parameters.
constexpr const char* kRunOfSchema2 =
    "INSERT INTO runs(id, run_id, start_time, start_epoch, verdict, baseline) VALUES(1, 'a', 'ta', 100, 'PASS', '{\"old\":1}');"
    "INSERT INTO figures VALUES(1, 'tcp.goodput', 'pair:a/0->b/1', 'a:0 -> b:1', 'test=matrix', 9.1, 'Gb/s', 1, 9.4, 0.968, 'OK');"
    "INSERT INTO figures VALUES(1, 'tcp.latency', 'pair:a/0->b/1', 'a:0 -> b:1', 'test=matrix', 20, 'us', 0, NULL, NULL, 'OK');"
    "INSERT INTO figures VALUES(1, 'tcp.goodput', 'pair:b/1->a/0', 'b:1 -> a:0', 'test=matrix', 4.5, NULL, 1, 9.4, 0.479, 'BELOW');";

TEST_F(HistoryStoreTest, OlderSchemaIsMigratedKeepingItsRuns) {
  for (const int from : {1, 2}) {
    const auto file = path(from == 1 ? "v1.sqlite" : "v2.sqlite");
    {
      HistoryStore old(file, HistoryStore::Mode::write, from);
      EXPECT_EQ(old.schema_version(), from);
    }
    run_sql(file, kRunOfSchema2);
    run_sql(file, "CREATE TABLE filler(x); INSERT INTO filler VALUES(zeroblob(1000000)); DROP TABLE filler;");
    const auto held = fs::file_size(file);
    const auto before = HistoryStore(file, HistoryStore::Mode::read).figures(0);  // read as it is
    EXPECT_EQ(HistoryStore(file, HistoryStore::Mode::read).schema_version(), from);  // reading changes nothing
    ASSERT_EQ(before.size(), 3u);
    HistoryStore now(file, HistoryStore::Mode::write);
    EXPECT_EQ(now.schema_version(), kHistorySchemaVersion);
    EXPECT_EQ(now.run_count(), 1);
    EXPECT_LT(fs::file_size(file), held - 900000);  // what the old schema freed goes back to the file system
    const auto after = now.figures(0);
    ASSERT_EQ(after.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
      const auto &b = before[i].figure, &a = after[i].figure;
      EXPECT_EQ(std::tie(a.metric, a.subject, a.subject_label, a.parameters, a.value, a.unit, a.higher_is_better, a.ceiling,
                         a.efficiency, a.verdict),
                std::tie(b.metric, b.subject, b.subject_label, b.parameters, b.value, b.unit, b.higher_is_better, b.ceiling,
                         b.efficiency, b.verdict)) << i;
    }
    EXPECT_EQ(after[2].figure.value, 4.5);
    EXPECT_EQ(rows_of(file, "series"), 3);
    ASSERT_EQ(now.good_runs(0, 5).size(), 1u);
    EXPECT_EQ(now.good_runs(0, 5)[0].baseline, "{\"old\":1}");
    EXPECT_EQ(rows_of(file, "runs WHERE baseline = '' AND length(baseline_deflated) > 0"), 1);  // deflated on the way
    // A run added now names its figures through the series there already, and stores its baseline deflated.
    auto run = sample_run("b", 200);
    run.baseline = std::string(5000, ' ') + "{\"new\":2}";
    run.figures.push_back(run.figures[0]);
    run.figures.back().subject = "pair:c/2->a/0", run.figures.back().subject_label = "c:2 -> a:0";
    EXPECT_TRUE(now.add_run(run));
    EXPECT_EQ(rows_of(file, "series"), 4);  // a:0 -> b:1's goodput and latency were there; c:2 -> a:0 is new
    const auto good = now.good_runs(0, 5);
    ASSERT_EQ(good.size(), 2u);
    EXPECT_EQ(good[0].baseline, run.baseline);
    const auto added = now.figures(150);
    ASSERT_EQ(added.size(), 3u);
    EXPECT_EQ(added[2].figure.subject_label, "c:2 -> a:0");
    EXPECT_FALSE(added[1].figure.higher_is_better);
  }
}

TEST_F(HistoryStoreTest, ADamagedStoredBaselineIsOneLine) {
  {
    HistoryStore store(path("h.sqlite"), HistoryStore::Mode::write);
    store.add_run(sample_run("a", 100));
  }
  run_sql(path("h.sqlite"), "UPDATE runs SET baseline_deflated = x'789c0102'");
  const HistoryStore store(path("h.sqlite"), HistoryStore::Mode::read);
  try {
    store.good_runs(0, 1);
    ADD_FAILURE() << "a baseline that does not inflate was read";
  } catch (const HistoryError& e) {
    EXPECT_NE(std::string(e.what()).find("h.sqlite: the baseline of run a is damaged"), std::string::npos) << e.what();
  }
}

TEST(DeflatedText, ComesBackWholeAndRefusesAPart) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "{\"figure\": " + std::to_string(i * 7919 % 1000) + "},";
  const auto d = deflated(text);
  EXPECT_LT(d.size(), text.size() / 4);
  EXPECT_EQ(inflated(d.data(), d.size()), text);
  EXPECT_EQ(inflated(d.data(), d.size() / 2), std::nullopt);
  EXPECT_EQ(inflated("plain", 5), std::nullopt);
  EXPECT_EQ(inflated(deflated("").data(), deflated("").size()), "");
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
