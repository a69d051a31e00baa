// A second run into the same output directory keeps the first one's results.jsonl: it is renamed
// after the time that run started (results-20261201T093100Z.jsonl) before the new file is made.
#pragma once

#include <ctime>
#include <optional>
#include <string>

namespace gpunet::bench {

// "DIR/results-YYYYMMDDTHHMMSSZ.jsonl" for a run that started at `start` (UTC); a `serial` > 1 is
// added as "-2", "-3", ... when two runs started in the same second.
std::string earlier_results_name(const std::string& dir, std::time_t start, int serial);

// When DIR/results.jsonl exists and is not empty, renames it to earlier_results_name() for the time
// it was created (its birth time where the file system records one, else its last change) and
// returns the new path; nullopt when there was nothing to keep. Throws std::runtime_error when the
// file cannot be renamed.
std::optional<std::string> keep_earlier_results(const std::string& dir);

}  // namespace gpunet::bench
