// Rank 0's results file: every Record is appended to OUTPUT/results.jsonl as one JSON line, written
// at once, so nothing measured is lost if a later step dies or the run is killed. The records are not
// held in memory as well (a million flows at 1,024 nodes): at the end they are read back from the file
// as `gpunet-bench report` reads it, so the run's report is its file's re-render. The file is synced
// to disk at most every kSyncInterval and at the end, so a machine crash loses at most that much. (A
// sync per record cost 2-4 ms each here: 40-60 ms a round of a 16-node matrix, and hours at 1,024
// nodes.) Every write is checked: when
// one fails (a full disk), the file is cut back to its last whole line, the loss is said at once on
// `err`, that record and later ones are kept in memory, and failed() tells the run to stop at the next step,
// write every record to a fallback (results_fallback.hpp) and end with exit code 3.
// Thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <mutex>
#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::bench {

inline constexpr std::chrono::milliseconds kSyncInterval{500};

class ResultsSink {
 public:
  // Creates or truncates `path`; throws std::runtime_error on failure. `run` (hosts, versions, start
  // time) goes with the records to a fallback.
  ResultsSink(const std::string& path, std::ostream& err, report::Provenance run = {});
  ~ResultsSink();
  ResultsSink(const ResultsSink&) = delete;
  ResultsSink& operator=(const ResultsSink&) = delete;

  void append(const report::Record& r);
  // Every record appended, in order: those in the file read back from it, then those it lacks. Throws
  // std::runtime_error, one line naming the file, when it no longer gives back what was written to it.
  std::vector<report::Record> records() const;
  // Records appended from now on are kept in memory too, until taken: a suite's sweeps, for the
  // footer its console table ends with.
  void keep_next();
  std::vector<report::Record> take_kept();
  const std::string& path() const { return path_; }
  const report::Provenance& run() const { return run_; }

  bool failed() const;           // a write failed: later records are in memory only
  size_t lost() const;           // records that are not in the file
  std::string loss_text() const; // what lost() means, one phrase; "" when nothing was lost

 private:
  std::string path_;
  std::ostream& err_;
  report::Provenance run_;
  int fd_ = -1;
  long long whole_bytes_ = 0;  // the file's length up to its last whole line
  size_t written_ = 0;         // records in the file
  int write_errno_ = 0;        // the failure that stopped writing; 0 while all is well
  std::chrono::steady_clock::time_point synced_{};  // the last fsync
  mutable std::mutex mu_;
  std::vector<report::Record> unwritten_;  // those the file lacks: the first that could not be written, and later ones
  bool keeping_ = false;
  std::vector<report::Record> kept_;
};

// "suite/name variant bytes", to name a record in a message.
std::string record_label(const report::Record& r);

}  // namespace gpunet::bench
