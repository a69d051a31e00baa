#include "bench/app.hpp"

#include <unistd.h>

#include <chrono>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "bench/acceptance.hpp"
#include "bench/control.hpp"
#include "bench/counters/monitor.hpp"  // issue #8
#include "bench/rdma/console.hpp"
#include "bench/mpi_context.hpp"
#include "bench/results_sink.hpp"
#include "bench/runner.hpp"
#include "bench/suite.hpp"
#include "bench/tcp/console.hpp"  // tcp suite (issue #4)
#include "bench/tcp/suite.hpp"    // tcp suite (issue #4)
#include "bench/suites/console_lines.hpp"  // issue #8
#include "bench/suites/more_suites.hpp"    // issue #8
#include "bench/versions.hpp"
#include "gpunet/build_config.h"
#include "report/analysis.hpp"
#include "report/console.hpp"
#include "report/outputs.hpp"
#include "report/progress.hpp"

namespace gpunet::bench {

namespace {

using SuiteFn = void (*)(const SuiteContext&);

const std::map<std::string, SuiteFn>& suite_registry() {
  static const std::map<std::string, SuiteFn> suites{
      {"topo", &run_topo_suite},
      {"mpi", &run_mpi_suite_with_scaling},  // issue #8: --scaling adds the scaling sweep
      {"tcp", &tcp::run_tcp_suite},          // tcp suite (issue #4)
      {"rdma", &run_rdma_suite},
      {"nccl", &run_nccl_suite},             // issue #8
      {"pcie", &run_pcie_suite},             // issue #8
      {"node", &run_node_suite},             // issue #8
  };
  return suites;
}

// Rank 0 prepares the output directory; every rank learns whether that worked.
std::unique_ptr<ResultsSink> open_sink(const Config& cfg, const MpiContext& mpi) {
  std::unique_ptr<ResultsSink> sink;
  int ok = 1;
  if (mpi.is_root()) {
    try {
      std::filesystem::create_directories(cfg.output_dir);
      sink = std::make_unique<ResultsSink>(cfg.output_dir + "/results.jsonl");
    } catch (const std::exception& e) {
      std::cerr << "gpunet-bench: error: cannot use output directory '" << cfg.output_dir << "': " << e.what()
                << " (choose another with -o DIR)\n";
      ok = 0;
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, mpi.world);
  if (!ok) throw std::invalid_argument("output directory");
  return sink;
}

report::Provenance provenance(const Config& cfg, const MpiContext& mpi, const std::string& start) {
  report::Provenance p;
  p.argv = cfg.argv;
  p.hosts = mpi.hosts;
  p.ranks_per_node = mpi.ranks_per_node;
  p.reduction = to_string(cfg.reduction);
  p.version = GPUNET_VERSION;
  p.git_commit = GPUNET_GIT_COMMIT;
  p.mpi_version = mpi.mpi_library_version;
  p.hwloc_version = hwloc_version();
  p.cuda_version = cuda_runtime_version();
  p.nccl_version = nccl_version();
  p.start_time = start;
  p.end_time = report::utc_now_iso8601();
  return p;
}

// Rank 0 checks --spec, --baseline and --save-baseline before anything is measured (issue #7).
Acceptance acceptance_inputs(const Config& cfg, const MpiContext& mpi) {
  Acceptance acc;
  int ok = 1;
  if (mpi.is_root()) {
    try {
      acc = load_acceptance(cfg, std::cerr);
    } catch (const std::invalid_argument&) {
      ok = 0;
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, mpi.world);
  if (!ok) throw std::invalid_argument("acceptance input");
  return acc;
}

int finish_report(const Config& cfg, const MpiContext& mpi, const ResultsSink& sink, const ReportSections& sections,
                  const std::string& start, const Acceptance& acc) {
  report::Report rep;
  rep.provenance = provenance(cfg, mpi, start);
  rep.results = sink.records();
  rep.topology = sections.topology;
  rep.findings = sections.findings;
  // issue #8: findings that suites attach to records (extra.findings) are the report's findings too.
  for (const auto& r : rep.results)
    if (r.extra.is_object() && r.extra.contains("findings") && r.extra["findings"].is_array())
      for (const auto& f : r.extra["findings"])
        if (std::find(rep.findings.begin(), rep.findings.end(), f) == rep.findings.end()) rep.findings.push_back(f);
  report::analyze(rep);  // ceilings and efficiencies first: the acceptance verdicts read them
  std::ostringstream tables;  // verdicts and baseline comparison (issue #7), printed after the summary
  const int judged = judge_report(cfg, acc, rep, tables, std::cerr);
  report::write_analysed_outputs(rep, cfg.output_dir);
  int passed = 0, failed = 0, skipped = 0;
  for (const auto& r : rep.results) {
    passed += r.status == report::Status::passed;
    failed += r.status == report::Status::failed || r.status == report::Status::timed_out;
    skipped += r.status == report::Status::skipped;
  }
  std::cout << "# " << rep.results.size() << " results: " << passed << " passed, " << failed << " failed, " << skipped
            << " skipped. Reports: " << cfg.output_dir << "/{report.json,report.md,report.html,junit.xml,sweeps.csv}\n"
            << tables.str();
  return combine_exit_codes(failed > 0, judged);
}

}  // namespace

int run_benchmark(const Config& cfg, int& argc, char**& argv) {
  MpiSession session(argc, argv);
  MpiContext mpi = MpiContext::create();
  const std::string start = report::utc_now_iso8601();
  int code = 0;
  try {
    const Acceptance acc = acceptance_inputs(cfg, mpi);
    auto sink = open_sink(cfg, mpi);
    ControlPlane control(mpi, cfg.timeout_s, sink.get());
    Runner runner(cfg, control);
    const bool print = mpi.is_root() && !cfg.quiet;
    const bool tty = print && isatty(STDERR_FILENO);
    ReportSections sections;
    SuiteContext ctx{cfg, mpi, runner, control,
                     [&](const report::Record& r) {
                       control.emit(r);
                       if (!print || r.suite == "topo") return;
                       if (tty) std::cerr << "\r\033[K" << std::flush;  // clear the progress line first
                       std::cout << (r.suite == "tcp"    ? tcp::console_line(r)   // tcp suite (issue #4)
                                     : r.suite == "rdma" ? rdma::console_line(r)  // rdma suite (issue #5)
                                                         : console_line(r))       // issue #8
                                 << std::flush;
                     },
                     sections};
    std::string suite_now;
    auto suite_start = std::chrono::steady_clock::now();
    ctx.progress = [&](const std::string& step, int64_t bytes, int done, int total) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - suite_start).count();
      report::print_progress(std::cerr, tty,
                             {suite_now, step, bytes, done, total, elapsed, report::estimate_remaining_s(done, total, elapsed)});
    };
    counters::TrafficMonitor traffic(ctx);  // issue #8: which wire carried each suite's traffic
    for (const auto& name : cfg.suites) {
      suite_now = name;
      suite_start = std::chrono::steady_clock::now();
      if (print && prints_sweep_header(name))
        std::cout << report::console_sweep_header(name, mpi.size, mpi.num_nodes, to_string(cfg.reduction));
      traffic.begin(name);
      suite_registry().at(name)(ctx);
      traffic.end();
      report::end_progress(std::cerr, tty);
      if (print && name == "topo") std::cout << render_topology_console(sections) << std::flush;
    }
    control.finish();
    if (mpi.is_root()) code = finish_report(cfg, mpi, *sink, sections, start, acc);
  } catch (const std::invalid_argument&) {
    code = 2;
  } catch (const std::runtime_error& e) {  // e.g. a report file that cannot be written
    std::cerr << "gpunet-bench: error: " << e.what() << " (results.jsonl keeps every record)\n";
    code = 3;
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, mpi.world);
  mpi.release();
  return code;
}

}  // namespace gpunet::bench
