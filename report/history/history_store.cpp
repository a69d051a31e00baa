#include "report/history/history_store.hpp"

#include <sqlite3.h>
#include <sys/stat.h>

#include <iterator>
#include <memory>
#include <optional>
#include <unordered_map>

#include "common/strings.hpp"
#include "report/history/deflated_text.hpp"
#include "report/history/field_hash.hpp"

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
    // 2 -> 3: what names a figure (metric, subject, parameters, unit) is stored once, in series, and each
    // run's figure row holds its numbers; a run's baseline is stored deflated (deflated_text() below).
    // One run of 1,024 generated hosts took 587 MB as version 2.
    "CREATE TABLE series(id INTEGER PRIMARY KEY, metric TEXT NOT NULL, subject TEXT NOT NULL, subject_label TEXT NOT NULL,"
    " parameters TEXT NOT NULL, unit TEXT, higher_is_better INTEGER NOT NULL);"
    "INSERT INTO series(metric, subject, subject_label, parameters, unit, higher_is_better)"
    " SELECT metric, subject, subject_label, parameters, unit, higher_is_better FROM figures"
    " GROUP BY metric, subject, subject_label, parameters, unit, higher_is_better ORDER BY min(rowid);"
    "CREATE INDEX series_by_name ON series(metric, subject, subject_label, parameters, unit, higher_is_better);"
    "CREATE TABLE series_values(run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " series INTEGER NOT NULL REFERENCES series(id), value REAL NOT NULL, ceiling REAL, efficiency REAL, verdict TEXT);"
    "INSERT INTO series_values SELECT f.run, s.id, f.value, f.ceiling, f.efficiency, f.verdict FROM figures f JOIN series s"
    " ON s.metric = f.metric AND s.subject = f.subject AND s.subject_label = f.subject_label AND s.parameters = f.parameters"
    " AND s.unit IS f.unit AND s.higher_is_better = f.higher_is_better ORDER BY f.rowid;"
    "DROP INDEX series_by_name;"
    "DROP TABLE figures;"
    "ALTER TABLE series_values RENAME TO figures;"
    "CREATE INDEX figures_by_run ON figures(run);"
    "ALTER TABLE runs ADD COLUMN baseline_deflated BLOB;"
    "UPDATE runs SET baseline_deflated = deflated_text(baseline), baseline = '' WHERE baseline <> '';",
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

// deflated_text(TEXT) in SQL, for the migration to schema 3: the text deflated, as a blob.
void sql_deflated_text(sqlite3_context* ctx, int, sqlite3_value** args) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(args[0]));
  try {
    const std::string out = deflated(text ? std::string(text, static_cast<std::size_t>(sqlite3_value_bytes(args[0]))) : "");
    sqlite3_result_blob64(ctx, out.data(), out.size(), SQLITE_TRANSIENT);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  }
}

// The series id of a figure's name, added when it is new: a run of a known cluster adds none. The
// series are found by a hash of their fields held here, each candidate read back to compare its fields:
// an index over the fields in the file took 159 MB at 1,024 generated hosts.
class SeriesIds {
 public:
  explicit SeriesIds(sqlite3* db)
      : get_(prepare_statement(db, "SELECT metric, subject, parameters, subject_label, unit, higher_is_better FROM series WHERE id = ?")),
        add_(prepare_statement(db, "INSERT INTO series(metric, subject, parameters, subject_label, unit, higher_is_better)"
                                   " VALUES(?,?,?,?,?,?)")),
        db_(db) {
    const auto all = prepare_statement(db, "SELECT id, metric, subject, parameters, subject_label, unit, higher_is_better FROM series");
    if (!all) return;
    int rc = 0;
    while ((rc = sqlite3_step(all.get())) == SQLITE_ROW)
      ids_.emplace(hash_of(all.get(), 1), sqlite3_column_int64(all.get(), 0));
    complete_ = rc == SQLITE_DONE;
  }
  // nullopt when SQLite cannot read or write.
  std::optional<sqlite3_int64> of(const HistoryFigure& f) {
    if (!complete_ || !get_ || !add_) return std::nullopt;
    const uint64_t h = (FieldHash() << f.metric << f.subject << f.parameters << f.subject_label << f.unit
                                    << (f.higher_is_better ? "1" : "0")).value();
    const auto [first, last] = ids_.equal_range(h);
    for (auto it = first; it != last; ++it) {
      sqlite3_reset(get_.get());
      sqlite3_bind_int64(get_.get(), 1, it->second);
      if (sqlite3_step(get_.get()) != SQLITE_ROW) return std::nullopt;
      if (column_text(get_.get(), 0) == f.metric && column_text(get_.get(), 1) == f.subject &&
          column_text(get_.get(), 2) == f.parameters && column_text(get_.get(), 3) == f.subject_label &&
          column_text(get_.get(), 4) == f.unit && (sqlite3_column_int(get_.get(), 5) != 0) == f.higher_is_better)
        return it->second;
    }
    sqlite3_reset(add_.get());
    bind_text(add_.get(), 1, f.metric), bind_text(add_.get(), 2, f.subject), bind_text(add_.get(), 3, f.parameters);
    bind_text(add_.get(), 4, f.subject_label), bind_text(add_.get(), 5, f.unit);
    sqlite3_bind_int(add_.get(), 6, f.higher_is_better ? 1 : 0);
    if (sqlite3_step(add_.get()) != SQLITE_DONE) return std::nullopt;
    const auto id = sqlite3_last_insert_rowid(db_);
    ids_.emplace(h, id);
    return id;
  }

 private:
  // The hash of the fields in columns first .. first + 5 (a null unit reads as the empty text).
  static uint64_t hash_of(sqlite3_stmt* s, int first) {
    FieldHash h;
    for (int i = first; i < first + 5; ++i) h << column_text(s, i);
    return (h << (sqlite3_column_int(s, first + 5) != 0 ? "1" : "0")).value();
  }
  SqlStatement get_, add_;
  sqlite3* db_;
  std::unordered_multimap<uint64_t, sqlite3_int64> ids_;
  bool complete_ = false;
};

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
  if (mode == Mode::write &&
      sqlite3_create_function_v2(db_, "deflated_text", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, sql_deflated_text, nullptr,
                                 nullptr, nullptr) != SQLITE_OK)
    fail("cannot open");
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
  // Schema 3 frees most of what an older file held (two runs of 1,024 generated hosts: 1.18 GB, then
  // 328 MB): give it back to the file system. A VACUUM that fails leaves the file whole, only larger.
  if (version_ > 0 && version_ < 3 && target >= 3) sqlite3_exec(db_, "VACUUM", nullptr, nullptr, nullptr);
  version_ = target;
}

bool HistoryStore::add_run(const HistoryRun& run) {
  if (version_ != kHistorySchemaVersion)  // a store opened for writing is migrated; tests open older ones
    throw HistoryError(printable(path_ + ": cannot add a run to history schema " + std::to_string(version_)));
  if (sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) fail("cannot write");
  try {
    const auto ins = prepare_statement(db_, "INSERT OR IGNORE INTO runs(run_id, start_time, start_epoch, end_time, version, git_commit,"
                                  " hosts, provenance, verdict, source, baseline, baseline_deflated) VALUES(?,?,?,?,?,?,?,?,?,?,'',?)");
    if (!ins) fail("cannot write");
    bind_text(ins.get(), 1, run.run_id), bind_text(ins.get(), 2, run.start_time);
    sqlite3_bind_int64(ins.get(), 3, run.start_epoch);
    bind_text(ins.get(), 4, run.end_time), bind_text(ins.get(), 5, run.version), bind_text(ins.get(), 6, run.git_commit);
    bind_text(ins.get(), 7, run.hosts), bind_text(ins.get(), 8, run.provenance), bind_text(ins.get(), 9, run.verdict);
    bind_text(ins.get(), 10, run.source);
    const std::string baseline = deflated(run.baseline);
    sqlite3_bind_blob64(ins.get(), 11, baseline.data(), baseline.size(), SQLITE_STATIC);
    if (sqlite3_step(ins.get()) != SQLITE_DONE) fail("cannot write a run");
    if (sqlite3_changes(db_) == 0) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      return false;
    }
    const sqlite3_int64 id = sqlite3_last_insert_rowid(db_);
    SeriesIds series(db_);
    const auto fig = prepare_statement(db_, "INSERT INTO figures(run, series, value, ceiling, efficiency, verdict) VALUES(?,?,?,?,?,?)");
    if (!fig) fail("cannot write");
    for (const auto& f : run.figures) {
      const auto sid = series.of(f);
      if (!sid) fail("cannot write a figure");
      sqlite3_reset(fig.get());
      sqlite3_bind_int64(fig.get(), 1, id);
      sqlite3_bind_int64(fig.get(), 2, *sid);
      sqlite3_bind_double(fig.get(), 3, f.value);
      bind_number(fig.get(), 4, f.ceiling), bind_number(fig.get(), 5, f.efficiency);
      bind_text(fig.get(), 6, f.verdict);
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
  // Schema 3 names a figure through its series; an older file read as it is holds the names in each row.
  const auto s = prepare_statement(db_, version_ >= 3
      ? "SELECT r.run_id, r.start_epoch, r.verdict, s.metric, s.subject, s.subject_label, s.parameters,"
        " f.value, s.unit, s.higher_is_better, f.ceiling, f.efficiency, f.verdict"
        " FROM figures f JOIN runs r ON f.run = r.id JOIN series s ON f.series = s.id WHERE r.start_epoch >= ?"
        " ORDER BY r.start_epoch, r.id, f.rowid"
      : "SELECT r.run_id, r.start_epoch, r.verdict, f.metric, f.subject, f.subject_label, f.parameters,"
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
  const auto s = prepare_statement(db_, version_ >= 3
      ? "SELECT run_id, start_time, verdict, baseline, baseline_deflated FROM runs WHERE start_epoch >= ? AND verdict <> 'FAIL'"
        " AND (baseline <> '' OR baseline_deflated IS NOT NULL) ORDER BY start_epoch DESC, id DESC LIMIT ?"
      : "SELECT run_id, start_time, verdict, baseline, NULL FROM runs WHERE start_epoch >= ? AND verdict <> 'FAIL'"
        " AND baseline <> '' ORDER BY start_epoch DESC, id DESC LIMIT ?");
  if (!s) fail("cannot read");
  sqlite3_bind_int64(s.get(), 1, since_epoch);
  sqlite3_bind_int(s.get(), 2, count);
  std::vector<StoredRunBaseline> out;
  int rc = 0;
  while ((rc = sqlite3_step(s.get())) == SQLITE_ROW) {
    StoredRunBaseline run{column_text(s.get(), 0), column_text(s.get(), 1), column_text(s.get(), 2), column_text(s.get(), 3)};
    if (sqlite3_column_type(s.get(), 4) != SQLITE_NULL) {
      const auto text = inflated(sqlite3_column_blob(s.get(), 4), static_cast<std::size_t>(sqlite3_column_bytes(s.get(), 4)));
      if (!text) throw HistoryError(printable(path_ + ": the baseline of run " + run.run_id + " is damaged (it does not inflate)"));
      run.baseline = *text;
    }
    out.push_back(std::move(run));
  }
  if (rc != SQLITE_DONE) fail("cannot read");
  return out;
}

int HistoryStore::run_count() const {
  const auto s = prepare_statement(db_, "SELECT count(*) FROM runs");
  if (!s || sqlite3_step(s.get()) != SQLITE_ROW) fail("cannot read");
  return sqlite3_column_int(s.get(), 0);
}

}  // namespace gpunet::report::history
