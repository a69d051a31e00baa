// A results.jsonl read into a Report. Its lines are parsed in batches on two threads (a million lines
// at 1,024 hosts) and taken in file order, so the records, the one error and the warnings are those
// of reading it one line after another: a record per line, a line {"provenance": ...} or
// {"topology": ...} fills those parts, a cut-off last line is skipped with a warning, and the first
// bad line refuses the file with one line naming it. Equal link facts (extra.link, extra.dst_link)
// are kept once for all the records that carry them (Record::link, Record::dst_link).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "report/render/outputs.hpp"

namespace gpunet::report {

// What every refusal of a results file ends with.
inline constexpr const char* kResultsFileHint = " (give a report.json or a results.jsonl written by gpunet-bench)";

// A file refused: `msg`, made one printable line whatever the file holds.
LoadedResults results_refused(const std::string& msg);

// The whole text of a file, already read.
LoadedResults read_results_jsonl(const std::string& path, std::string_view text);
// A file larger than a report file may be (`bytes`, its size): read as it is parsed, never held whole.
LoadedResults read_large_results_jsonl(const std::string& path, std::size_t bytes);
// A run's own results.jsonl read back by rank 0 at its end (it holds no records while it measures):
// the records as this version wrote them, in order, never upgraded from an older schema; a file of
// no record is no error. Read as it is parsed, as read_large_results_jsonl.
LoadedResults read_own_results_jsonl(const std::string& path);

}  // namespace gpunet::report
