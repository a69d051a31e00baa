// The run history file: SQLite, one file, no server. Two tables, runs and figures (one row per
// analysed figure of a run). The schema is versioned with PRAGMA user_version and migrated forward step
// by step when a file is opened for writing; PRAGMA application_id marks the file as a gpunet-bench
// history. A file that is not SQLite, is damaged, belongs to another program or was written by a newer
// gpunet-bench is refused with a HistoryError of one line naming the file.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "report/history/history_record.hpp"

struct sqlite3;

namespace gpunet::report::history {

class HistoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kHistorySchemaVersion = 3;
inline constexpr int32_t kHistoryApplicationId = 0x67707562;  // "gpub"

// One figure of one run, as read back.
struct StoredFigure {
  std::string run_id;
  int64_t start_epoch = 0;
  std::string run_verdict;
  HistoryFigure figure;
};

struct StoredRunBaseline {
  std::string run_id, start_time, verdict;
  std::string baseline;  // JSON text in the --baseline format
};

class HistoryStore {
 public:
  enum class Mode { read, write };
  // write: creates the file when missing and migrates it up to `schema` (tests pass an older one);
  // read: the file must exist and hold a history (any version up to kHistorySchemaVersion).
  HistoryStore(const std::string& path, Mode mode, int schema = kHistorySchemaVersion);
  ~HistoryStore();
  HistoryStore(const HistoryStore&) = delete;
  HistoryStore& operator=(const HistoryStore&) = delete;

  int schema_version() const { return version_; }
  // Adds a run with its figures in one transaction; false (nothing written) when the run is there already.
  bool add_run(const HistoryRun& run);
  // Every figure of runs that started at or after `since_epoch`, oldest run first.
  std::vector<StoredFigure> figures(int64_t since_epoch) const;
  // The newest `count` runs that started at or after `since_epoch` and whose verdict is not FAIL, newest first.
  std::vector<StoredRunBaseline> good_runs(int64_t since_epoch, int count) const;
  int run_count() const;

 private:
  void check_identity();
  void migrate(int target);
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  sqlite3* db_ = nullptr;
  int version_ = 0;
};

}  // namespace gpunet::report::history
