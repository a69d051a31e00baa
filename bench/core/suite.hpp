// The suite interface: what a suite gets to work with (SuiteContext) and what it is (Suite). A suite
// measures and emits Records, each with its typed figure (report/model/figure.hpp); it never prints. The
// list of all suites is bench/suites/suite_list.cpp; bench/main.cpp hands it to the core as a
// SuiteList, so the core names no suite. bench/README.md says how to add one.
#pragma once

#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "bench/core/config.hpp"
#include "bench/core/control.hpp"
#include "bench/core/mpi_context.hpp"
#include "bench/core/plan.hpp"
#include "bench/core/runner.hpp"
#include "report/judge/figure_select.hpp"
#include "report/model/record.hpp"

namespace CLI {
class App;
}

namespace gpunet::topo {
struct Fabric;
}

namespace gpunet::bench {

// Report sections that are not Records; filled on rank 0, written into report.json at the end.
struct ReportSections {
  gpunet::json topology = gpunet::json::object();  // host -> topology section (topo suite)
  gpunet::json findings = gpunet::json::array();   // {severity, kind, message, subjects, node}
  // The topo suite's findings, for its console block. The report takes them from the topo records'
  // extra.findings, like every suite's, so they are not in `findings` (that would list them twice).
  gpunet::json topology_findings = gpunet::json::array();
};

struct SuiteContext {
  const Config& cfg;
  const MpiContext& mpi;
  const Runner& runner;
  ControlPlane& control;
  std::function<void(const report::Record&)> emit;  // any rank; reaches rank 0's results.jsonl
  ReportSections& sections;                          // rank 0 only
  const topo::Fabric* fabric = nullptr;              // rank 0: --fabric as the start read it; none without
  // Progress of a long suite (rank 0 shows it on a terminal, nowhere else): step `done` of `total`.
  std::function<void(const std::string& step, int64_t bytes, int done, int total)> progress =
      [](const std::string&, int64_t, int, int) {};
  // The same when the suite knows its plan: the time left as it plans it (seconds), counted down on
  // the console until the next call. Rank 0.
  std::function<void(const std::string& step, int done, int total, double remaining_s)> progress_planned =
      [](const std::string&, int, int, double) {};
  // Fills suite, host, rank and ranks of a new record.
  report::Record record(const std::string& suite, const std::string& name) const {
    report::Record r;
    r.suite = suite;
    r.name = name;
    r.host = mpi.host;
    r.rank = mpi.rank;
    r.ranks = mpi.size;
    return r;
  }
};

// Option text a suite's options parse into and check after the parse (lists, rates): one value per
// option name. The parser keeps it alive between add_options and finish_options.
struct OptionText {
  std::map<std::string, std::string> values;
  std::string& at(const std::string& option) { return values[option]; }
  std::string get(const std::string& option) const {
    const auto it = values.find(option);
    return it == values.end() ? std::string() : it->second;
  }
};

// One suite. Every function but run may be null (the suite has no options, prints nothing, ...).
struct Suite {
  std::string name;                  // what --suites takes
  std::string help;                  // one line for --help
  // What an acceptance spec may name of it (its tests; suite is filled in from `name`): spec_names.
  std::vector<report::KnownTest> spec_tests;
  // The kind of each of its records (report/model/record.hpp RecordKind), stamped on every record it emits;
  // the report picks tables, subjects and training inputs by it, never by the suite's name.
  report::RecordKind (*record_kind)(const report::Record& r) = nullptr;
  bool by_default = true;            // runs when --suites is not given; else only on request
  bool sweeps = false;               // its records are size sweeps: nccl-tests' footer follows it
  // Its options, in its own --help group, and their checks after the parse ("" = fine).
  void (*add_options)(CLI::App& app, Config& cfg, OptionText& text) = nullptr;
  std::string (*finish_options)(Config& cfg, const OptionText& text, const CLI::App& app) = nullptr;
  void (*run)(const SuiteContext& ctx) = nullptr;
  // The console line for one of its records as it arrives at rank 0 ("" = none).
  std::string (*console)(const report::Record& r) = nullptr;
  // Why a passed record of it measured nothing ("" = it did, or is not timed): bench/core/unmeasured.hpp.
  std::string (*unmeasured)(const report::Record& r) = nullptr;
  // Console text before it runs (a table header) and after it ran (a summary of its sections).
  std::string (*console_header)(const Config& cfg, const MpiContext& mpi) = nullptr;
  std::string (*console_summary)(const ReportSections& sections) = nullptr;
  // Its estimated time for `nodes` nodes of `ranks` ranks, before it runs (bench/core/plan.hpp; null = not estimated).
  PlanPart (*plan)(const Config& cfg, int nodes, int ranks) = nullptr;
};

// The suites a run knows, in default run order (bench/main.cpp hands in bench/suites/suite_list).
using SuiteList = std::span<const Suite>;

// The suite of that name in the list, or null.
const Suite* find_suite(SuiteList suites, const std::string& name);
// Every suite's spec_tests with its name: what a spec may name (report::parse_spec).
report::KnownTests spec_names(SuiteList suites);
// The record with the kind its suite states for it (unchanged when the suite states none or is null).
report::Record with_stated_kind(report::Record r, const Suite* suite);

// "topo,mpi,tcp,...": the names in list order of the suites that run by default (or, with false,
// of those that run only when --suites names them).
std::string suite_names(SuiteList suites, bool by_default = true);

}  // namespace gpunet::bench
