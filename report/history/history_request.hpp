// What `gpunet-bench history ...` asks for (filled by bench/core/options.cpp, run by
// report/history/history_command.hpp).
#pragma once

#include <string>
#include <vector>

namespace gpunet::report::history {

struct HistoryRequest {
  enum class Action { none, import, render };
  Action action = Action::none;
  std::string file;                  // FILE.sqlite
  std::vector<std::string> reports;  // import: report.json or results.jsonl files
  std::string out_dir;               // render: where history.md and history.html go
  std::string since;                 // render: only runs that started at or after this UTC time
  std::string figure;                // render: only figures whose name contains this
  std::string save_baseline;         // render: write a baseline from the last `last` good runs instead
  int last = 5;
};

}  // namespace gpunet::report::history
