// Offline re-rendering: a saved report.json or results.jsonl back into every output, without MPI.
// The file is read whole through the bounded reader (common/input_file.hpp). A report.json is read
// with a SAX parser straight into Records (report_reader.hpp); a results.jsonl line by line, moving
// each record's extra out of its parsed line. Both refuse nesting past kMaxJsonDepth.
#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "common/input_file.hpp"
#include "common/strings.hpp"
#include "report/analysed/analyse.hpp"
#include "report/model/json_fields.hpp"
#include "report/model/json_parse.hpp"
#include "report/model/legacy_figure.hpp"
#include "report/document/document_section.hpp"
#include "report/render/outputs.hpp"
#include "report/model/report_reader.hpp"

namespace gpunet::report {

using nlohmann::json;

namespace {

constexpr const char* kHint = " (give a report.json or a results.jsonl written by gpunet-bench)";

LoadedResults fail(const std::string& msg) {
  LoadedResults r;
  r.error = printable(msg);  // one line, whatever the file holds
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
std::optional<LoadedResults> load_report_json(const std::string& path, std::string_view text) {
  ReportText r = read_report_json(text);
  if (r.kind == ReportText::Kind::not_report) return std::nullopt;
  if (r.schema_version > kSchemaVersion)
    return fail(path + ": written by a newer gpunet-bench (schema " + std::to_string(r.schema_version) +
                "; this one reads up to " + std::to_string(kSchemaVersion) + ")");
  if (r.key_or_number_refused) return fail(path + ": " + r.error);
  if (r.kind == ReportText::Kind::invalid) return fail(path + ": not a valid report.json: " + r.error + kHint);
  LoadedResults out;
  out.report = std::move(r.report);
  upgrade_legacy_report(*out.report);
  if (const auto in_part = flows_in_part_text(*out.report); !in_part.empty()) out.warnings.push_back(path + ": " + in_part);
  return out;
}

// One line of a results.jsonl: a record, or the provenance/topology line. Empty on success, else what
// is wrong: "is not ..." for the line, ": field: problem" for a field.
std::string take_line(json& j, Report& rep) {
  if (!j.is_object()) return "is not a JSON object";
  try {
    if (j.contains("suite")) {
      rep.results.push_back(take_record(j));
    } else if (j.contains("provenance") || j.contains("topology")) {
      if (j.contains("provenance")) rep.provenance = j.at("provenance").get<Provenance>();
      if (j.contains("topology")) rep.topology = std::move(j.at("topology"));
    } else {
      return "is not a result record (no \"suite\")";
    }
  } catch (const FieldError& e) {
    return ": " + std::string(e.what());
  } catch (const std::exception& e) {
    return "is not a valid result record: " + first_line(e.what());
  }
  return "";
}

// A results.jsonl, one line at a time: from the whole text, or from the file as it is read.
class JsonlLines {
 public:
  // `bytes`: the file's size, which sets the records' room (records_room).
  JsonlLines(const std::string& path, std::size_t bytes) : path_(path) { rep_.results.reserve(records_room(bytes)); }

  // Takes one line; false once the file is refused (then finish() says why) or ends early.
  bool line(std::string_view line, bool has_newline) {
    ++line_no_;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) return true;
    JsonParsed parsed = parse_json_text(line);
    if (parsed.key_or_number_refused) return refuse(at() + ": " + parsed.error);
    if (!parsed.ok()) {
      // Cut off by a dying run: the last line, without its newline, after at least one good record.
      if (!has_newline && !rep_.results.empty()) {
        out_.warnings.push_back(at() + " is incomplete (the run stopped while writing it); skipped it");
        return false;
      }
      unparsable_first_ = line_no_ == 1;
      return refuse(at() + " is not valid JSON: " + parsed.error + kHint);
    }
    if (const auto problem = take_line(parsed.value, rep_); !problem.empty())  // "is not ..." or ": field: ..."
      return refuse(at() + (problem.front() == ':' ? "" : " ") + problem + kHint);
    return true;
  }

  LoadedResults finish() {
    if (!error_.empty()) return fail(error_);
    if (rep_.results.empty()) return fail(path_ + ": holds no result records" + kHint);
    // Lines carry no schema version: records without a figure may be from version 1.
    const bool legacy = std::none_of(rep_.results.begin(), rep_.results.end(), [](const Record& r) { return r.figure.has_value(); });
    if (legacy) rep_.schema_version = 1;
    upgrade_legacy_report(rep_);
    out_.report = std::move(rep_);
    return std::move(out_);
  }

  // Refused at its first line, which is no JSON: a report.json written over several lines, say.
  bool unparsable_first_line() const { return unparsable_first_; }

 private:
  std::string at() const { return path_ + ": line " + std::to_string(line_no_); }
  bool refuse(std::string why) {
    error_ = std::move(why);
    return false;
  }

  std::string path_;
  std::size_t line_no_ = 0;
  Report rep_;
  LoadedResults out_;
  std::string error_;
  bool unparsable_first_ = false;
};

LoadedResults load_jsonl(const std::string& path, std::string_view text) {
  JsonlLines lines(path, text.size());
  for (size_t begin = 0; begin < text.size();) {
    const size_t newline = text.find('\n', begin);
    const bool has_newline = newline != std::string_view::npos;
    const std::string_view line = text.substr(begin, has_newline ? newline - begin : std::string_view::npos);
    begin = has_newline ? newline + 1 : text.size();
    if (!lines.line(line, has_newline)) break;
  }
  return lines.finish();
}

struct ResultsFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A results.jsonl larger than a whole report file may be (a matrix of hundreds of hosts), read one
// line at a time; a line may be as large as a report file.
LoadedResults load_large_jsonl(const std::string& path, std::size_t bytes) {
  JsonlLines lines(path, bytes);
  try {
    read_input_lines<ResultsFileError>(path, kResultsInput, [&](std::string_view line, bool has_newline) {
      return lines.line(line, has_newline);
    });
  } catch (const ResultsFileError& e) {
    return fail(e.what());
  }
  if (lines.unparsable_first_line())
    return fail(path + ": is larger than the " + std::to_string(kResultsInput.max_bytes >> 20) +
                " MiB a report.json may be, and not a results.jsonl (re-render from the run's results.jsonl)");
  return lines.finish();
}

}  // namespace

LoadedResults load_results(const std::string& path, std::size_t whole_up_to) {
  // Only a results.jsonl may be larger than a report file: it is read line by line.
  if (const auto size = input_file_size(path); size && *size > whole_up_to) return load_large_jsonl(path, *size);
  std::string text;
  try {
    text = read_input_file<ResultsFileError>(path, kResultsInput);
  } catch (const ResultsFileError& e) {
    return fail(e.what());
  }
  if (text.empty()) return fail(path + " is empty" + std::string(kHint));
  // A report.json is one object with schema_version; anything else is read as JSON lines.
  if (auto report = load_report_json(path, text)) return std::move(*report);
  return load_jsonl(path, text);
}

int rerender(const std::string& path, const std::string& out_dir, std::ostream& err,
             const std::optional<training::TrainingParams>& training) {
  LoadedResults loaded = load_results(path);
  for (const auto& w : loaded.warnings) err << "gpunet-bench report: " << w << "\n";
  if (!loaded.report) {
    err << "gpunet-bench report: " << loaded.error << "\n";
    return 2;
  }
  AnalyseInputs in;
  in.training = training;
  const Analysed a = analyse(std::move(*loaded.report), in);
  try {
    write_analysed_outputs(a, out_dir);
  } catch (const std::exception& e) {
    err << "gpunet-bench report: " << first_line(e.what()) << " (choose a writable directory with -o)\n";
    return 2;
  }
  return a.judgement.verdict.exit_code();  // the run's own exit code for this verdict
}

}  // namespace gpunet::report
