// Offline re-rendering: a saved report.json or results.jsonl back into every output, without MPI.
// The file is read whole through the bounded reader (common/input_file.hpp). A report.json is read
// with a SAX parser straight into Records (report_reader.hpp), a results.jsonl by results_jsonl.hpp.
// Both refuse nesting past kMaxJsonDepth.
#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "common/input_file.hpp"
#include "common/strings.hpp"
#include "report/analysed/analyse.hpp"
#include "report/model/legacy_figure.hpp"
#include "report/document/document_section.hpp"
#include "report/render/outputs.hpp"
#include "report/render/results_jsonl.hpp"
#include "report/render/results_memory.hpp"
#include "report/model/report_reader.hpp"

namespace gpunet::report {

namespace {

// A report.json, read with the SAX reader; nullopt when the text is not one (then it is read as
// JSON lines).
std::optional<LoadedResults> load_report_json(const std::string& path, std::string_view text) {
  ReportText r = read_report_json(text);
  if (r.kind == ReportText::Kind::not_report) return std::nullopt;
  if (r.schema_version > kSchemaVersion)
    return results_refused(path + ": written by a newer gpunet-bench (schema " + std::to_string(r.schema_version) +
                "; this one reads up to " + std::to_string(kSchemaVersion) + ")");
  if (r.key_or_number_refused) return results_refused(path + ": " + r.error);
  if (r.kind == ReportText::Kind::invalid) return results_refused(path + ": not a valid report.json: " + r.error + kResultsFileHint);
  LoadedResults out;
  out.report = std::move(r.report);
  upgrade_legacy_report(*out.report);
  if (const auto in_part = flows_in_part_text(*out.report); !in_part.empty()) out.warnings.push_back(path + ": " + in_part);
  return out;
}

struct ResultsFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace

LoadedResults load_results(const std::string& path, std::size_t whole_up_to) {
  // Only a results.jsonl may be larger than a report file: it is read line by line.
  if (const auto size = input_file_size(path)) {
    if (auto why = results_beyond_memory(path, *size)) return results_refused(*why);
    if (*size > whole_up_to) return read_large_results_jsonl(path, *size);
  }
  std::string text;
  try {
    text = read_input_file<ResultsFileError>(path, kResultsInput);
  } catch (const ResultsFileError& e) {
    return results_refused(e.what());
  }
  if (text.empty()) return results_refused(path + " is empty" + std::string(kResultsFileHint));
  // A report.json is one object with schema_version; anything else is read as JSON lines.
  if (auto report = load_report_json(path, text)) return std::move(*report);
  return read_results_jsonl(path, text);
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
