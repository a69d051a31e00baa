// Console progress for long runs: "suite, step, time left" on one line that rewrites itself. Pure
// formatting plus one writer that prints only to a terminal (the caller says whether stderr is one:
// isatty(STDERR_FILENO)), so logs and CI output stay quiet.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace gpunet::report {

struct Progress {
  std::string suite;                 // "nccl"
  std::string step;                  // "allreduce"
  int64_t bytes = 0;                 // message size of the step, 0 when none
  int done = 0;                      // steps finished
  int total = 0;                     // steps planned, 0 when unknown
  double elapsed_s = 0;              // since the suite started
  std::optional<double> remaining_s; // from the time budgets; else estimated from the pace so far
};

// Remaining time at the pace so far; nullopt before the first step ends or when the total is unknown.
std::optional<double> estimate_remaining_s(int done, int total, double elapsed_s);

// "[nccl] allreduce 64 MiB  12/30 (40%)  about 1m05s left"
std::string progress_line(const Progress& p);

// Rewrites the progress line on `err` ("\r" + line + clear to end of line) when `is_terminal`;
// writes nothing otherwise. Returns whether it wrote.
bool print_progress(std::ostream& err, bool is_terminal, const Progress& p);
// Ends the progress line (a newline) when `is_terminal`.
void end_progress(std::ostream& err, bool is_terminal);

}  // namespace gpunet::report
