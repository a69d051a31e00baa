#include "report/history/history_store.hpp"

#include <sqlite3.h>
#include <sys/stat.h>

#include <iterator>
#include <memory>

#include "common/strings.hpp"

namespace gpunet::report::history {

namespace {

// Each entry takes the schema from version i to i + 1; a new version is one more entry.
constexpr const char* kHistoryMigrations[] = {
    // 0 -> 1: runs and their figures
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, run_id TEXT NOT NULL UNIQUE, start_time TEXT NOT NULL,"
    " start_epoch INTEGER NOT NULL, end_time TEXT, version TEXT, git_commit TEXT, hosts TEXT, provenance TEXT,"
    " verdict TEXT, source TEXT, baseline TEXT);"
    "CREATE TABLE figures(run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, metric TEXT NOT NULL,"
    " subject TEXT NOT NULL, subject_label TEXT NOT NULL, parameters TEXT NOT NULL, value REAL NOT NULL, unit TEXT,"
    " higher_is_better INTEGER NOT NULL, ceiling REAL, efficiency REAL, verdict TEXT);",
    // 1 -> 2: the reads by time and by figure
    "CREATE INDEX runs_by_start ON runs(start_epoch);"
    "CREATE INDEX figures_by_run ON figures(run);",
};
static_assert(std::size(kHistoryMigrations) == kHistorySchemaVersion);

constexpr const char* kHistoryHint = " (give a history file written by gpunet-bench --history, or a new path)";

struct SqlStatementDeleter {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using SqlStatement = std::unique_ptr<sqlite3_stmt, SqlStatementDeleter>;

SqlStatement prepare_statement(sqlite3* db, const char* sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) {
    sqlite3_finalize(s);
    return nullptr;
  }
  return SqlStatement(s);
}

std::string column_text(sqlite3_stmt* s, int i) {
  const auto* t = sqlite3_column_text(s, i);
  return t ? reinterpret_cast<const char*>(t) : "";
}

std::optional<double> column_number(sqlite3_stmt* s, int i) {
  if (sqlite3_column_type(s, i) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_double(s, i);
}

void bind_text(sqlite3_stmt* s, int i, const std::string& v) { sqlite3_bind_text(s, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT); }
void bind_number(sqlite3_stmt* s, int i, const std::optional<double>& v) {
  if (v) sqlite3_bind_double(s, i, *v);
  else sqlite3_bind_null(s, i);
}

}  // namespace

HistoryStore::HistoryStore(const std::string& path, Mode mode, int schema) : path_(path) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) throw HistoryError(printable(path + ": not a regular file" + kHistoryHint));
  if (!exists && mode == Mode::read) throw HistoryError(printable(path + ": no such file (record runs into it with --history FILE, or import reports with `gpunet-bench history import FILE REPORT.json`)"));
  const int flags = mode == Mode::read ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) fail("cannot open");
  sqlite3_busy_timeout(db_, 10000);  // another run writing the same file (a timer beside a manual run)
  check_identity();
  if (mode == Mode::write && version_ < schema) migrate(schema);
  if (mode == Mode::read && version_ == 0) throw HistoryError(printable(path + ": holds no runs yet" + std::string(kHistoryHint)));
}

HistoryStore::~HistoryStore() { sqlite3_close(db_); }

void HistoryStore::fail(const std::string& what) const {
  const int code = db_ ? sqlite3_errcode(db_) : SQLITE_CANTOPEN;
  if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
    throw HistoryError(printable(path_ + ": not an SQLite database, or a damaged one" + std::string(kHistoryHint)));
  throw HistoryError(printable(path_ + ": " + what + ": " + (db_ ? sqlite3_errmsg(db_) : "out of memory")));
}

// Whose file this is: a new (empty) one, a gpunet-bench history of a known version, or something else.
void HistoryStore::check_identity() {
  const auto one_int = [&](const char* sql) {
    const auto s = prepare_statement(db_, sql);
    if (!s || sqlite3_step(s.get()) != SQLITE_ROW) fail("cannot read");
    return sqlite3_column_int64(s.get(), 0);
  };
  const auto app_id = one_int("PRAGMA application_id");
  version_ = static_cast<int>(one_int("PRAGMA user_version"));
  const auto objects = one_int("SELECT count(*) FROM sqlite_master");
  if (app_id != kHistoryApplicationId && (objects > 0 || version_ != 0 || app_id != 0))
    throw HistoryError(printable(path_ + ": an SQLite database of another program (no gpunet-bench history in it)" + kHistoryHint));
  if (version_ > kHistorySchemaVersion)
    throw HistoryError(printable(path_ + ": written by a newer gpunet-bench (history schema " + std::to_string(version_) +
                                 "; this one reads up to " + std::to_string(kHistorySchemaVersion) + ")"));
  if (objects == 0) return;
  const auto s = prepare_statement(db_, "PRAGMA quick_check");
  if (!s || sqlite3_step(s.get()) != SQLITE_ROW || column_text(s.get(), 0) != "ok")
    throw HistoryError(printable(path_ + ": a damaged SQLite database (PRAGMA quick_check fails); keep a copy and start a new file"));
}

void HistoryStore::migrate(int target) {
  char* error = nullptr;
  std::string sql = "BEGIN IMMEDIATE;";
  for (int v = version_; v < target; ++v) sql += kHistoryMigrations[v];
  sql += "PRAGMA application_id=" + std::to_string(kHistoryApplicationId) + ";PRAGMA user_version=" + std::to_string(target) + ";COMMIT;";
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string why = error ? error : "unknown error";
    sqlite3_free(error);
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw HistoryError(printable(path_ + ": cannot update the history schema to version " + std::to_string(target) + ": " + why));
  }
  version_ = target;
}

bool HistoryStore::add_run(const HistoryRun& run) {
  if (sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) fail("cannot write");
  try {
    const auto ins = prepare_statement(db_, "INSERT OR IGNORE INTO runs(run_id, start_time, start_epoch, end_time, version, git_commit,"
                                  " hosts, provenance, verdict, source, baseline) VALUES(?,?,?,?,?,?,?,?,?,?,?)");
    if (!ins) fail("cannot write");
    bind_text(ins.get(), 1, run.run_id), bind_text(ins.get(), 2, run.start_time);
    sqlite3_bind_int64(ins.get(), 3, run.start_epoch);
    bind_text(ins.get(), 4, run.end_time), bind_text(ins.get(), 5, run.version), bind_text(ins.get(), 6, run.git_commit);
    bind_text(ins.get(), 7, run.hosts), bind_text(ins.get(), 8, run.provenance), bind_text(ins.get(), 9, run.verdict);
    bind_text(ins.get(), 10, run.source), bind_text(ins.get(), 11, run.baseline);
    if (sqlite3_step(ins.get()) != SQLITE_DONE) fail("cannot write a run");
    if (sqlite3_changes(db_) == 0) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      return false;
    }
    const sqlite3_int64 id = sqlite3_last_insert_rowid(db_);
    const auto fig = prepare_statement(db_, "INSERT INTO figures(run, metric, subject, subject_label, parameters, value, unit,"
                                  " higher_is_better, ceiling, efficiency, verdict) VALUES(?,?,?,?,?,?,?,?,?,?,?)");
    if (!fig) fail("cannot write");
    for (const auto& f : run.figures) {
      sqlite3_reset(fig.get());
      sqlite3_bind_int64(fig.get(), 1, id);
      bind_text(fig.get(), 2, f.metric), bind_text(fig.get(), 3, f.subject), bind_text(fig.get(), 4, f.subject_label);
      bind_text(fig.get(), 5, f.parameters);
      sqlite3_bind_double(fig.get(), 6, f.value);
      bind_text(fig.get(), 7, f.unit);
      sqlite3_bind_int(fig.get(), 8, f.higher_is_better ? 1 : 0);
      bind_number(fig.get(), 9, f.ceiling), bind_number(fig.get(), 10, f.efficiency);
      bind_text(fig.get(), 11, f.verdict);
      if (sqlite3_step(fig.get()) != SQLITE_DONE) fail("cannot write a figure");
    }
    if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) fail("cannot write");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return true;
}

std::vector<StoredFigure> HistoryStore::figures(int64_t since_epoch) const {
  const auto s = prepare_statement(db_, "SELECT r.run_id, r.start_epoch, r.verdict, f.metric, f.subject, f.subject_label, f.parameters,"
                              " f.value, f.unit, f.higher_is_better, f.ceiling, f.efficiency, f.verdict"
                              " FROM figures f JOIN runs r ON f.run = r.id WHERE r.start_epoch >= ?"
                              " ORDER BY r.start_epoch, r.id, f.rowid");
  if (!s) fail("cannot read");
  sqlite3_bind_int64(s.get(), 1, since_epoch);
  std::vector<StoredFigure> out;
  int rc = 0;
  while ((rc = sqlite3_step(s.get())) == SQLITE_ROW) {
    StoredFigure row;
    row.run_id = column_text(s.get(), 0);
    row.start_epoch = sqlite3_column_int64(s.get(), 1);
    row.run_verdict = column_text(s.get(), 2);
    HistoryFigure& f = row.figure;
    f.metric = column_text(s.get(), 3), f.subject = column_text(s.get(), 4), f.subject_label = column_text(s.get(), 5);
    f.parameters = column_text(s.get(), 6);
    f.value = sqlite3_column_double(s.get(), 7);
    f.unit = column_text(s.get(), 8);
    f.higher_is_better = sqlite3_column_int(s.get(), 9) != 0;
    f.ceiling = column_number(s.get(), 10), f.efficiency = column_number(s.get(), 11);
    f.verdict = column_text(s.get(), 12);
    out.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) fail("cannot read");
  return out;
}

std::vector<StoredRunBaseline> HistoryStore::good_runs(int64_t since_epoch, int count) const {
  const auto s = prepare_statement(db_, "SELECT run_id, start_time, verdict, baseline FROM runs WHERE start_epoch >= ? AND verdict <> 'FAIL'"
                              " AND baseline <> '' ORDER BY start_epoch DESC, id DESC LIMIT ?");
  if (!s) fail("cannot read");
  sqlite3_bind_int64(s.get(), 1, since_epoch);
  sqlite3_bind_int(s.get(), 2, count);
  std::vector<StoredRunBaseline> out;
  int rc = 0;
  while ((rc = sqlite3_step(s.get())) == SQLITE_ROW)
    out.push_back({column_text(s.get(), 0), column_text(s.get(), 1), column_text(s.get(), 2), column_text(s.get(), 3)});
  if (rc != SQLITE_DONE) fail("cannot read");
  return out;
}

int HistoryStore::run_count() const {
  const auto s = prepare_statement(db_, "SELECT count(*) FROM runs");
  if (!s || sqlite3_step(s.get()) != SQLITE_ROW) fail("cannot read");
  return sqlite3_column_int(s.get(), 0);
}

}  // namespace gpunet::report::history
