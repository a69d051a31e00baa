// Reads a report.json with a SAX parser: records are built field by field while the text is parsed,
// and only the free-form parts (Record::extra, topology, findings, Report::extra) become JSON trees.
// A 30,000-record report loads in a fraction of the time and memory a full JSON tree takes.
#pragma once

#include <istream>
#include <optional>
#include <string>

#include "report/record.hpp"

namespace gpunet::report {

struct ReportText {
  enum class Kind { report, not_report, invalid };
  Kind kind = Kind::not_report;  // not_report: not one JSON object with schema_version (e.g. JSON lines)
  std::optional<Report> report;  // when kind == report
  std::string error;             // when kind == invalid: one line
  int schema_version = 0;
};

// kind == report: a Report (schema_version as written; the caller checks it);
// kind == invalid: it is a report.json (schema_version came first) but a part is malformed.
// `size_hint` (the file size, 0 when unknown) sizes the record list up front.
ReportText read_report_json(std::istream& in, size_t size_hint = 0);

}  // namespace gpunet::report
