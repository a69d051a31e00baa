// Where the records go when OUTPUT/results.jsonl can no longer be written (a full disk, an immutable
// directory): every record the run holds, whole, as JSON lines, to the first place that takes them:
// $TMPDIR/gpunet-bench-PID/results.jsonl (/tmp without TMPDIR), then ./gpunet-bench-PID-results.jsonl;
// when neither can be written, to the console (stdout) as JSON lines. The count written equals the
// count measured.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::bench {

// The files to try, in order. `tmpdir` is $TMPDIR (null or empty: /tmp).
std::vector<std::string> fallback_places(const char* tmpdir, long pid);

// Writes the run's provenance (a {"provenance": ...} line first, as `gpunet-bench report` reads it:
// hosts, versions, start time; end_time is now) and `records` to the first of `places` that takes them
// all, else to `console`. Returns where they are: the path, or "the console (stdout) as JSON lines".
std::string write_fallback(report::Provenance provenance, const std::vector<report::Record>& records,
                           const std::vector<std::string>& places, std::ostream& console);

// The one line that says where the records went, e.g. "all 40 records measured are in
// /tmp/gpunet-bench-4711/results.jsonl (render them with: gpunet-bench report ... -o DIR)".
std::string fallback_line(size_t count, const std::string& where);

}  // namespace gpunet::bench
