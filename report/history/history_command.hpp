// The history commands: `gpunet-bench history import FILE REPORT...`, `gpunet-bench history FILE
// [-o DIR] [--since T] [--figure S] [--save-baseline OUT --last N]`, and --history FILE on a run or a
// re-render. Each problem is one line on `err`: exit 2 for bad input (a missing report, a damaged or
// foreign history file), 3 when the history cannot be written.
#pragma once

#include <ostream>
#include <string>

#include "report/history/history_request.hpp"
#include "report/analysed/analyse.hpp"

namespace gpunet::report::history {

int run_history_command(const HistoryRequest& req, std::ostream& out, std::ostream& err);

// Appends an analysed report to the history file (created when missing). 0, or 2 (a file that is not
// a history) / 3 (cannot write) after one line on err naming the file.
int record_history(const std::string& path, const Analysed& analysed, const std::string& source, std::ostream& out,
                   std::ostream& err);

// Empty when `path` can take runs (a history file, or none yet); else one line saying why not.
std::string history_file_problem(const std::string& path);

}  // namespace gpunet::report::history
