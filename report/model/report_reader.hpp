// Reads a report.json with a SAX parser: records are built field by field while the text is parsed,
// and only the free-form parts (Record::extra, topology, findings, Report::extra) become JSON trees.
// A 30,000-record report loads in a fraction of the time and memory a full JSON tree takes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "report/model/record.hpp"

namespace gpunet::report {

struct ReportText {
  enum class Kind { report, not_report, invalid };
  Kind kind = Kind::not_report;  // not_report: not one JSON object with schema_version (e.g. JSON lines)
  std::optional<Report> report;  // when kind == report
  std::string error;             // when kind == invalid: one line
  bool key_or_number_refused = false;    // a key repeats in one object or a number is out of range (json_unique_keys.hpp)
  int schema_version = 0;
};

// kind == report: a Report (schema_version as written; the caller checks it);
// kind == invalid: it is a report.json (schema_version came first) but a part is malformed.
// Nesting deeper than kMaxJsonDepth (json_parse.hpp) or a duplicate key makes it invalid.
ReportText read_report_json(std::string_view text);

// How many records a results file of `bytes` may hold (records take 0.5-2 KB of text), capped: the
// room readers set aside at once, as address space touched only as records arrive, so that a million
// records are never copied to a larger array while both are held.
std::size_t records_room(std::size_t bytes);

}  // namespace gpunet::report
