// Offline re-rendering: a saved report.json or results.jsonl back into every output, without MPI.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "report/outputs.hpp"

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

LoadedResults load_report_json(const std::string& path, const json& j) {
  const auto v = j.find("schema_version");
  if (!v->is_number_integer()) return fail(path + ": schema_version is not an integer" + kHint);
  if (v->get<int>() > kSchemaVersion)
    return fail(path + ": written by a newer gpunet-bench (schema " + std::to_string(v->get<int>()) +
                "; this one reads up to " + std::to_string(kSchemaVersion) + ")");
  LoadedResults out;
  try {
    out.report = j.get<Report>();
  } catch (const std::exception& e) {
    return fail(path + ": not a valid report.json: " + first_line(e.what()) + kHint);
  }
  out.report->schema_version = kSchemaVersion;
  return out;
}

LoadedResults load_jsonl(const std::string& path, const std::string& text) {
  LoadedResults out;
  Report rep;
  std::istringstream in(text);
  std::string line;
  size_t line_no = 0, consumed = 0;
  while (std::getline(in, line)) {
    ++line_no;
    consumed += line.size() + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j;
    try {
      j = json::parse(line);
    } catch (const json::parse_error& e) {
      // Cut off by a dying run: the last line, without its newline, after at least one good record.
      const bool cut_off = consumed > text.size() && !rep.results.empty();
      if (cut_off) {
        out.warnings.push_back(path + ": line " + std::to_string(line_no) +
                               " is incomplete (the run stopped while writing it); skipped it");
        continue;
      }
      return fail(path + ": line " + std::to_string(line_no) + " is not valid JSON: " + first_line(e.what()) + kHint);
    }
    if (!j.is_object()) return fail(path + ": line " + std::to_string(line_no) + " is not a JSON object" + kHint);
    try {
      if (j.contains("suite")) {
        rep.results.push_back(j.get<Record>());
      } else if (j.contains("provenance") || j.contains("topology")) {
        if (j.contains("provenance")) rep.provenance = j.at("provenance").get<Provenance>();
        if (j.contains("topology")) rep.topology = j.at("topology");
      } else {
        return fail(path + ": line " + std::to_string(line_no) + " is not a result record (no \"suite\")" + kHint);
      }
    } catch (const std::exception& e) {
      return fail(path + ": line " + std::to_string(line_no) + " is not a valid result record: " +
                  first_line(e.what()) + kHint);
    }
  }
  if (rep.results.empty()) return fail(path + ": holds no result records" + kHint);
  out.report = std::move(rep);
  return out;
}

}  // namespace

LoadedResults load_results(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot read " + path + ": " + std::strerror(errno) + kHint);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return fail("cannot read " + path + ": " + std::strerror(errno) + kHint);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return fail(path + " is empty" + std::string(kHint));
  // A report.json is one object with schema_version; anything else is read as JSON lines.
  json whole = json::parse(text, nullptr, false);
  if (!whole.is_discarded() && whole.is_object() && whole.contains("schema_version")) {
    text.clear();
    text.shrink_to_fit();
    return load_report_json(path, whole);
  }
  whole = json();
  return load_jsonl(path, text);
}

int rerender(const std::string& path, const std::string& out_dir, std::ostream& err) {
  LoadedResults loaded = load_results(path);
  for (const auto& w : loaded.warnings) err << "gpunet-bench report: " << w << "\n";
  if (!loaded.report) {
    err << "gpunet-bench report: " << loaded.error << "\n";
    return 2;
  }
  analyze(*loaded.report);
  try {
    write_analysed_outputs(*loaded.report, out_dir);
  } catch (const std::exception& e) {
    err << "gpunet-bench report: " << first_line(e.what()) << " (choose a writable directory with -o)\n";
    return 2;
  }
  return 0;
}

}  // namespace gpunet::report
