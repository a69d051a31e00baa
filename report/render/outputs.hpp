// Writing every output of a run, and re-rendering them offline from a saved report.json or
// results.jsonl (no MPI needed).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/input_file.hpp"
#include "report/analysed/analyse.hpp"
#include "report/analysis/analysis.hpp"
#include "report/model/record.hpp"
#include "report/training/training_params.hpp"

namespace gpunet::report {

// The files write_all_outputs writes into the output directory.
inline constexpr const char* kOutputFiles[] = {"report.json", "report.md", "report.html", "junit.xml", "sweeps.csv", "metrics.prom",
                                               // one CSV per table kind (report/document/table_model.hpp); a run on
                                               // several rails writes tcp_matrix_rail<k>.csv per rail instead
                                               // of tcp_matrix.csv (docs/rails.md)
                                               "tcp_matrix.csv", "rdma_matrix.csv", "tcp_flows.csv", "tcp_groups.csv",
                                               "tcp_latency.csv", "rdma_latency.csv", "rdma_bandwidth.csv", "pcie.csv",
                                               "host_memory.csv", "fabric.csv", "other_figures.csv", "checks.csv",
                                               "tcp_congestion.csv"};

// Analyses a copy of `rep` and writes every output into out_dir (created if needed). Each file is
// written to a temporary name and renamed, so a reader never sees half a file. Throws
// std::runtime_error with one line when a file cannot be written.
void write_all_outputs(const Report& rep, const std::string& out_dir, const AnalysisOptions& opt = {});
// The same for a report that is already analysed (report/analysed/analyse.hpp; no copy): every output
// takes its judgement and training answer from `a`, none reads them back from the report (a stored
// report's: stored_analysis).
void write_analysed_outputs(const Analysed& a, const std::string& out_dir);

struct LoadedResults {
  std::optional<Report> report;       // set on success
  std::string error;                  // one line, set on failure
  std::vector<std::string> warnings;  // e.g. a truncated last line that was skipped
};
// Loads a report.json (an object with schema_version) or a results.jsonl (one Record per line; a
// line {"provenance": ...} or {"topology": ...} fills those parts). A jsonl's last line without a
// newline that does not parse is taken as cut off by a dying run: skipped, with a warning.
// A file larger than `whole_up_to` (the 1 GiB a report file may be) can only be a results.jsonl: it
// is read line by line and never held whole.
LoadedResults load_results(const std::string& path, std::size_t whole_up_to = kResultsInput.max_bytes);

// `gpunet-bench report PATH -o DIR`: load, analyse, write every output. Returns the exit code of the
// report's one verdict, as the run gave it (0, FAIL 1, INCOMPLETE 4: report/judge/run_verdict.hpp), or 2 after
// one line on `err` when the input is missing or malformed or the outputs cannot be written. The training
// section is recomputed with `training` when given, else with the parameters the report stored.
int rerender(const std::string& path, const std::string& out_dir, std::ostream& err,
             const std::optional<training::TrainingParams>& training = std::nullopt);

}  // namespace gpunet::report
