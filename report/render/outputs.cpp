#include "report/render/outputs.hpp"

#include <filesystem>
#include <functional>
#include <future>
#include <stdexcept>

#include "report/analysed/analyse.hpp"
#include "report/model/file_write.hpp"
#include "report/render/renderers.hpp"
#include "report/render/table_render.hpp"
#include "report/judge/scheduler_lines.hpp"

namespace gpunet::report {

namespace fs = std::filesystem;

namespace {

// Streams into a temporary name, then renames it (report/model/file_write.hpp).
void write_file(const fs::path& path, const std::function<void(std::ostream&)>& render) {
  write_file_replacing(path.string(), render);
}

}  // namespace

void write_analysed_outputs(const Analysed& a, const std::string& out_dir) {
  const Report& rep = a.report;
  const Judgement& j = a.judgement;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir))
    throw std::runtime_error("cannot create the output directory " + out_dir + ": " +
                             (ec ? ec.message() : std::string("a file of that name exists")));
  const fs::path dir(out_dir);
  // The outputs that read only the records and the judgement are written on a second thread, beside
  // the document's (a million records at 1,024 hosts); both read `a` and nothing else.
  auto by_record = std::async(std::launch::async, [&] {
    write_file(dir / "sweeps.csv", [&](std::ostream& o) { render_csv(rep, o); });
    write_file(dir / "metrics.prom", [&](std::ostream& o) { render_prom(rep, j.verdict, o); });
  });
  const DocumentParts parts = document_parts(a);  // what md, html and the CSVs share
  const FlowsKept kept = flows_kept(rep, parts);  // at scale, report.json keeps the flows a reader must see
  auto junit = std::async(std::launch::async, [&] {  // as report.json keeps them, beside it
    write_file(dir / "junit.xml", [&](std::ostream& o) { render_junit(rep, j, kept, o); });
  });
  write_file(dir / "report.json", [&](std::ostream& o) { render_json(rep, j.verdict, kept, o); });
  write_file(dir / "report.md", [&](std::ostream& o) { o << render_markdown(parts); });
  write_file(dir / "report.html", [&](std::ostream& o) { o << render_html(parts); });
  write_file_replacing((dir / "bad-nodes.txt").string(), bad_nodes_text(parts.wrong.bad_nodes));  // for the scheduler
  for (const auto& csv : table_csv_files(csv_tables(parts))) write_file(dir / csv.name, [&](std::ostream& o) { write_csv(csv, o); });
  by_record.get();  // the other threads' errors, if any, as this thread's would be
  junit.get();
}

void write_all_outputs(const Report& rep, const std::string& out_dir, const AnalysisOptions& opt) {
  AnalyseInputs in;
  in.options = opt;
  write_analysed_outputs(analyse(rep, in), out_dir);
}

}  // namespace gpunet::report
