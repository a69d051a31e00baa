// Offline re-rendering: a saved report.json or results.jsonl back into every output, without MPI.
// A report.json is read with a SAX parser straight into Records (report_reader.hpp); a results.jsonl
// line by line, moving each record's extra out of its parsed line.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "report/outputs.hpp"
#include "report/report_reader.hpp"
#include "report/training_section.hpp"

namespace gpunet::report {

using nlohmann::json;

namespace {

constexpr const char* kHint = " (give a report.json or a results.jsonl written by gpunet-bench)";

LoadedResults fail(std::string msg) {
  LoadedResults r;
  r.error = std::move(msg);
  return r;
}

std::string first_line(const std::string& what) { return what.substr(0, what.find('\n')); }

// A record from its JSON object, moving `extra` instead of copying it.
Record take_record(json& j) {
  json extra = json::object();
  if (j.is_object()) {
    if (const auto it = j.find("extra"); it != j.end()) {
      extra = std::move(*it);
      j.erase(it);
    }
  }
  Record r = j.get<Record>();
  r.extra = std::move(extra);
  return r;
}

// A report.json, read with the SAX reader; nullopt when the text is not one (then it is read as
// JSON lines).
std::optional<LoadedResults> load_report_json(const std::string& path, std::istream& in, size_t size) {
  ReportText r = read_report_json(in, size);
  if (r.kind == ReportText::Kind::not_report) return std::nullopt;
  if (r.schema_version > kSchemaVersion)
    return fail(path + ": written by a newer gpunet-bench (schema " + std::to_string(r.schema_version) +
                "; this one reads up to " + std::to_string(kSchemaVersion) + ")");
  if (r.kind == ReportText::Kind::invalid) return fail(path + ": not a valid report.json: " + r.error + kHint);
  LoadedResults out;
  out.report = std::move(r.report);
  out.report->schema_version = kSchemaVersion;
  return out;
}

LoadedResults load_jsonl(const std::string& path, std::istream& in) {
  LoadedResults out;
  Report rep;
  size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    const bool has_newline = !in.eof();
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j;
    try {
      j = json::parse(line);
    } catch (const json::parse_error& e) {
      // Cut off by a dying run: the last line, without its newline, after at least one good record.
      if (!has_newline && !rep.results.empty()) {
        out.warnings.push_back(path + ": line " + std::to_string(line_no) +
                               " is incomplete (the run stopped while writing it); skipped it");
        break;
      }
      return fail(path + ": line " + std::to_string(line_no) + " is not valid JSON: " + first_line(e.what()) + kHint);
    }
    if (!j.is_object()) return fail(path + ": line " + std::to_string(line_no) + " is not a JSON object" + kHint);
    try {
      if (j.contains("suite")) {
        rep.results.push_back(take_record(j));
      } else if (j.contains("provenance") || j.contains("topology")) {
        if (j.contains("provenance")) rep.provenance = j.at("provenance").get<Provenance>();
        if (j.contains("topology")) rep.topology = std::move(j.at("topology"));
      } else {
        return fail(path + ": line " + std::to_string(line_no) + " is not a result record (no \"suite\")" + kHint);
      }
    } catch (const std::exception& e) {
      return fail(path + ": line " + std::to_string(line_no) + " is not a valid result record: " +
                  first_line(e.what()) + kHint);
    }
  }
  if (in.bad()) return fail("cannot read " + path + ": " + std::strerror(errno) + kHint);
  if (rep.results.empty()) return fail(path + ": holds no result records" + kHint);
  out.report = std::move(rep);
  return out;
}

}  // namespace

LoadedResults load_results(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return fail("cannot read " + path + ": " + std::strerror(errno) + kHint);
  // The file is read twice at most (report.json first, then JSON lines); a pipe is buffered first.
  std::istringstream buffered;
  std::istream* in = &file;
  file.seekg(0, std::ios::end);
  const auto end = file ? static_cast<std::streamoff>(file.tellg()) : std::streamoff(-1);
  if (end < 0) {
    file.clear();
    buffered.str(std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()));
    in = &buffered;
  }
  const size_t size = end > 0 ? static_cast<size_t>(end) : 0;
  in->seekg(0, std::ios::beg);
  if (in->peek() == std::char_traits<char>::eof() && !in->bad()) return fail(path + " is empty" + std::string(kHint));
  // A report.json is one object with schema_version; anything else is read as JSON lines.
  if (auto report = load_report_json(path, *in, size)) return std::move(*report);
  in->clear();
  in->seekg(0, std::ios::beg);
  if (!*in) return fail("cannot read " + path + ": " + std::strerror(errno) + kHint);
  return load_jsonl(path, *in);
}

int rerender(const std::string& path, const std::string& out_dir, std::ostream& err,
             const std::optional<training::TrainingParams>& training) {
  LoadedResults loaded = load_results(path);
  for (const auto& w : loaded.warnings) err << "gpunet-bench report: " << w << "\n";
  if (!loaded.report) {
    err << "gpunet-bench report: " << loaded.error << "\n";
    return 2;
  }
  analyze(*loaded.report);
  training::add_training_section(*loaded.report, training.value_or(training::stored_params(*loaded.report)));
  try {
    write_analysed_outputs(*loaded.report, out_dir);
  } catch (const std::exception& e) {
    err << "gpunet-bench report: " << first_line(e.what()) << " (choose a writable directory with -o)\n";
    return 2;
  }
  return 0;
}

}  // namespace gpunet::report
