// What the run history keeps of one analysed run: the run (when, which build, which hosts, its verdict,
// its figures as a baseline) and every figure with its ceiling, efficiency and verdict. Pure functions
// from an analysed Report; the SQLite file is report/history/history_store.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/analysed/analyse.hpp"

namespace gpunet::report::history {

struct HistoryFigure {
  std::string metric;         // tcp.goodput
  std::string subject;        // subject_key: "pair:vm/0->vm/1"
  std::string subject_label;  // "vm:0 -> vm:1"
  std::string parameters;     // "streams=1;test=matrix" (sorted, as in figure_key)
  double value = 0;
  std::string unit;
  bool higher_is_better = true;
  std::optional<double> ceiling;     // in `unit`, when known
  std::optional<double> efficiency;  // value / ceiling
  std::string verdict;               // OK, BELOW, ABOVE, failed, timed_out
};

struct HistoryRun {
  std::string run_id;      // start time and a hash of the provenance: the same report imported twice is one run
  std::string start_time;  // ISO 8601 UTC, as the report says
  int64_t start_epoch = 0; // seconds since 1970 UTC
  std::string end_time;
  std::string version, git_commit;
  std::string hosts;       // distinct hosts, comma separated
  std::string provenance;  // one line: version, commit, MPI, hwloc, CUDA, NCCL, ranks
  std::string verdict;     // the run verdict: PASS, WARN, INCOMPLETE, FAIL
  std::string source;      // the file it came from, or "run"
  std::string baseline;    // the run's figures in the --baseline format (JSON text)
  std::vector<HistoryFigure> figures;
};

// Seconds since 1970 of "YYYY-MM-DD", "YYYY-MM-DDTHH:MM" or "YYYY-MM-DDTHH:MM:SS" (an optional
// trailing Z or fraction; UTC). nullopt when the text is none of these.
std::optional<int64_t> parse_utc_time(const std::string& text);
// "2026-11-28 21:00" (UTC) of seconds since 1970.
std::string utc_minutes_text(int64_t epoch);

// The history entry of an analysed report and its verdict. Throws std::invalid_argument with one line
// when the report has no usable start time (provenance.start_time).
HistoryRun history_run_of(const Analysed& a, const std::string& source);

}  // namespace gpunet::report::history
