#include "bench/core/app.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "bench/core/acceptance.hpp"
#include "bench/core/control.hpp"
#include "bench/core/earlier_results.hpp"
#include "bench/core/evidence_step.hpp"
#include "bench/core/counters/monitor.hpp"
#include "bench/core/mpi_context.hpp"
#include "bench/core/time_budget.hpp"
#include "bench/core/open_files.hpp"
#include "bench/core/plan.hpp"
#include "bench/core/output_lock.hpp"
#include "bench/core/results_fallback.hpp"
#include "bench/core/results_sink.hpp"
#include "bench/core/runner.hpp"
#include "bench/core/suite.hpp"
#include "bench/core/console_lines.hpp"
#include "bench/core/console_writer.hpp"
#include "bench/core/unmeasured.hpp"
#include "bench/core/versions.hpp"
#include "gpunet/build_config.h"
#include "report/render/console.hpp"
#include "report/history/history_command.hpp"
#include "report/render/outputs.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/document/suite_times.hpp"
#include "report/render/training_render.hpp"

namespace gpunet::bench {

namespace {

// The console line of a record: its suite's (s), the common one for records of no suite (counters). The
// record is shown with its figure analysed as the report will analyse it, so both say the same.
std::string record_console_line(const Suite* s, const report::Record& r, const report::Provenance& p,
                                const gpunet::json& topology) {
  if (s && !s->console) return "";
  report::Record shown = r;
  report::attach_ceiling(shown, p, report::TopologyView(topology));
  return s ? s->console(shown) : console_line(shown);
}

// What the live analysis needs to know of the run: the hosts and how the ranks sit on them.
report::Provenance run_layout(const MpiContext& mpi) {
  report::Provenance p;
  p.hosts = mpi.hosts;
  p.ranks_per_node = mpi.ranks_per_node;
  return p;
}

// Who ran what where: argv, hosts, versions, start and end time.
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

// Rank 0's hold on the output directory: the lock that makes it this run's, and results.jsonl.
struct Output {
  std::unique_ptr<OutputLock> lock;
  std::unique_ptr<ResultsSink> sink;
};

// Rank 0 prepares the output directory and takes it for this run; every rank learns whether that
// worked. Another run writing there is exit 2 at once, naming it.
Output open_output(const Config& cfg, const MpiContext& mpi, const std::string& start) {
  Output out;
  int ok = 1;
  if (mpi.is_root()) {
    try {
      std::filesystem::create_directories(cfg.output_dir);
      out.lock = std::make_unique<OutputLock>(cfg.output_dir, lock_owner_text(::getpid(), start, mpi.host));
      if (const auto kept = keep_earlier_results(cfg.output_dir))
        std::cout << "# " << cfg.output_dir << "/results.jsonl of the earlier run is kept as " << *kept << "\n";
      out.sink = std::make_unique<ResultsSink>(cfg.output_dir + "/results.jsonl", std::cerr, provenance(cfg, mpi, start));
    } catch (const OutputLocked& e) {
      std::cerr << "gpunet-bench: error: -o/--output " << e.what() << "\n";
      ok = 0;
    } catch (const std::exception& e) {
      std::cerr << "gpunet-bench: error: cannot use output directory '" << cfg.output_dir << "': " << e.what()
                << " (choose another with -o DIR)\n";
      ok = 0;
    }
  }
  if (!mpi.all_ok(ok != 0)) throw std::invalid_argument("output directory");
  return out;
}


// After the run: records the file lacks go whole to a fallback, with the run's provenance; the line
// says where (or why the file's part could not be read back).
std::string save_lost_records(const ResultsSink& sink) {
  try {
    const auto records = sink.records();
    const std::string where = write_fallback(sink.run(), records, fallback_places(std::getenv("TMPDIR"), ::getpid()), std::cout);
    return sink.loss_text() + "; " + fallback_line(records.size(), where);
  } catch (const std::runtime_error& e) {
    return sink.loss_text() + "; " + e.what();
  }
}

// Rank 0 checks --spec, --baseline, --save-baseline and --sign-key before anything is measured.
Acceptance acceptance_inputs(const Config& cfg, const MpiContext& mpi) {
  Acceptance acc;
  int ok = 1;
  if (mpi.is_root()) {
    try {
      acc = load_acceptance(cfg, std::cerr);
    } catch (const std::invalid_argument&) {
      ok = 0;
    }
    if (ok && !sign_key_usable(cfg, std::cerr)) ok = 0;
  }
  if (!mpi.all_ok(ok != 0)) throw std::invalid_argument("acceptance input");
  return acc;
}

int finish_report(const Config& cfg, const MpiContext& mpi, const ResultsSink& sink, const ReportSections& sections,
                  const std::string& start, Acceptance acc, const std::vector<report::SuiteTime>& times) {
  report::Report rep;
  rep.provenance = provenance(cfg, mpi, start);
  rep.results = sink.records();
  rep.topology = sections.topology;
  report::set_suite_times(rep, times);
  rep.findings = sections.findings;
  // Findings that suites attach to records (extra.findings) are the report's findings too.
  for (const auto& r : rep.results)
    if (r.extra.is_object() && r.extra.contains("findings") && r.extra["findings"].is_array())
      for (const auto& f : r.extra["findings"])
        if (std::find(rep.findings.begin(), rep.findings.end(), f) == rep.findings.end()) rep.findings.push_back(f);
  const report::Analysed a = report::analyse(std::move(rep), analyse_inputs(cfg, acc));
  std::ostringstream tables;  // verdicts and baseline comparison, printed after the summary
  const int judged = print_judgement(cfg, acc, a, tables, std::cerr);
  release_baseline(acc);
  report::write_analysed_outputs(a, cfg.output_dir);
  int passed = 0, failed = 0, skipped = 0;
  for (const auto& r : a.report.results) {
    passed += r.status == report::Status::passed;
    failed += r.status == report::Status::failed || r.status == report::Status::timed_out;
    skipped += r.status == report::Status::skipped;
  }
  std::cout << "# " << a.report.results.size() << " results: " << passed << " passed, " << failed << " failed, " << skipped
            << " skipped. Reports: " << cfg.output_dir << "/{report.json,report.md,report.html,junit.xml,metrics.prom,sweeps.csv,*.csv}\n"
            << report::console_summary(a.report) << tables.str() << report::training::training_console(a.training)
            << report::run_verdict_console(a.judgement.verdict);
  // After every output is on disk: a history that cannot take the run costs the exit code, not the report.
  const int recorded = cfg.history_path.empty() ? 0 : report::history::record_history(cfg.history_path, a, "run", std::cout, std::cerr);
  return std::max(run_exit_code(a, judged), recorded);
}

}  // namespace

int run_benchmark(const Config& given, SuiteList suites, int& argc, char**& argv) {
  raise_open_file_limit();  // before MPI opens its own; rank 0 checks the result when the ranks connect
  MpiSession session(argc, argv);
  MpiContext mpi = MpiContext::create();
  // --time-budget: the options the plan fits with (the same on every rank); over budget even at the
  // cheapest, the run goes on with the cheapest and its plan line says so.
  const BudgetFit fit = fit_time_budget(given, suites, mpi.num_nodes, mpi.size);
  const Config& cfg = fit.cfg;
  const std::string start = report::utc_now_iso8601();
  int code = 0;
  Output output;
  std::unique_ptr<ResultsSink>& sink = output.sink;
  try {
    Acceptance acc = acceptance_inputs(cfg, mpi);
    output = open_output(cfg, mpi, start);
    const bool print = mpi.is_root() && !cfg.quiet;
    ConsoleWriter console(std::cout, std::cerr,
                          print ? progress_mode(cfg.progress, isatty(STDERR_FILENO)).value_or(ProgressMode::plain) : ProgressMode::off);
    if (print) console.text(run_plan_line(cfg, suites, mpi.num_nodes, mpi.size) + budget_text(fit) + "\n");
    ControlPlane control(mpi, cfg.timeout_s, sink.get(), cfg.control_if, print ? &console : nullptr);
    Runner runner(cfg, control);
    ReportSections sections;
    const report::Provenance layout = run_layout(mpi);
    SuiteContext ctx{cfg, mpi, runner, control,
                     [&](const report::Record& measured) {
                       const Suite* suite = find_suite(suites, measured.suite);
                       const report::Record r = fail_if_unmeasured(with_stated_kind(measured, suite), suite ? suite->unmeasured : nullptr);
                       control.emit(r);
                       if (!print) return;
                       control.print_live();  // rank 0's interval lines first
                       console.text(record_console_line(suite, r, layout, sections.topology));
                     },
                     sections, acc.fabric ? &*acc.fabric : nullptr};
    std::string suite_now;
    auto suite_start = std::chrono::steady_clock::now();
    const auto since_start = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - suite_start).count(); };
    ctx.progress = [&](const std::string& step, int64_t bytes, int done, int total) {
      const double elapsed = since_start();
      console.progress({suite_now, step, bytes, done, total, elapsed, report::estimate_remaining_s(done, total, elapsed)});
    };
    ctx.progress_planned = [&](const std::string& step, int done, int total, double remaining_s) {
      console.progress({suite_now, step, 0, done, total, since_start(), remaining_s});
    };
    counters::TrafficMonitor traffic(ctx);  // which wire carried each suite's traffic
    std::vector<report::SuiteTime> times;  // each suite's wall time beside its plan
    for (const auto& name : cfg.suites) {
      const Suite& suite = *find_suite(suites, name);  // parse_options accepts listed names only
      suite_now = name;
      suite_start = std::chrono::steady_clock::now();
      if (print && suite.console_header) console.text(suite.console_header(cfg, mpi));
      if (print && suite.sweeps) sink->keep_next();
      ctx.progress("", 0, 0, 0);  // every suite shows a line from its start
      traffic.begin(name);
      suite.run(ctx);
      traffic.end();
      console.end_progress();
      if (print && suite.sweeps) console.text(sweep_footer(sink->take_kept(), name));
      if (print && suite.console_summary) console.text(suite.console_summary(sections));
      times.push_back({name, suite.plan ? suite.plan(cfg, mpi.num_nodes, mpi.size).seconds : -1, since_start()});
    }
    control.finish();
    // The evidence bundle last: it holds every output file as written.
    if (mpi.is_root()) code = with_evidence(cfg, finish_report(cfg, mpi, *sink, sections, start, std::move(acc), times), std::cout, std::cerr);
    if (sink && sink->lost() > 0) {
      std::cerr << "gpunet-bench: error: " << save_lost_records(*sink) << "; the report files hold them all\n";
      code = 3;
    }
  } catch (const std::invalid_argument&) {
    code = 2;
  } catch (const std::runtime_error& e) {  // e.g. a report file that cannot be written
    const std::string kept = !sink                ? ""
                             : sink->lost() == 0 ? " (results.jsonl keeps every record)"
                                                 : "; " + save_lost_records(*sink);
    std::cerr << "gpunet-bench: error: " << e.what() << kept << "\n";
    code = 3;
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, mpi.world);
  mpi.release();
  return code;
}

}  // namespace gpunet::bench
