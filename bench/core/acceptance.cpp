#include "bench/core/acceptance.hpp"

#include <algorithm>
#include <filesystem>
#include <future>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

#include "bench/core/output_probe.hpp"
#include "report/history/history_command.hpp"
#include "report/judge/culprits.hpp"
#include "report/render/outputs.hpp"
#include "report/render/section_render.hpp"
#include "topology/fabric.hpp"

namespace gpunet::bench {

Acceptance load_acceptance(const Config& cfg, std::ostream& err) {
  Acceptance acc;
  try {
    if (!cfg.spec_path.empty()) acc.spec = report::load_spec(cfg.spec_path, cfg.spec_names);
    if (!cfg.baseline_path.empty()) acc.baseline = report::load_baseline(cfg.baseline_path);
    if (!cfg.fabric_path.empty()) acc.fabric = topo::load_fabric(cfg.fabric_path);
  } catch (const std::exception& e) {
    err << "gpunet-bench: error: " << e.what() << "\n";
    throw std::invalid_argument("acceptance input");
  }
  for (const auto& [option, path] : {std::pair{"--save-baseline", &cfg.save_baseline_path},
                                      std::pair{"--learn-baseline", &cfg.learn_baseline_path}}) {
    if (path->empty()) continue;
    if (const auto why = probe_baseline_file(option, *path); !why.empty()) {
      err << "gpunet-bench: error: " << why << "\n";
      throw std::invalid_argument(option);
    }
  }
  // A history file that would refuse the run's figures is refused before anything is measured.
  if (const auto why = report::history::history_file_problem(cfg.history_path); !cfg.history_path.empty() && !why.empty()) {
    err << "gpunet-bench: error: --history " << why << "\n";
    throw std::invalid_argument("--history");
  }
  if (!cfg.learn_baseline_path.empty() && cfg.baseline_path.empty()) {
    err << "gpunet-bench: error: --learn-baseline " << cfg.learn_baseline_path
        << " needs --baseline FILE (the baseline whose history it extends)\n";
    throw std::invalid_argument("--learn-baseline");
  }
  return acc;
}

namespace {

bool save(const std::string& path, const report::Baseline& b, std::ostream& out, std::ostream& err) {
  try {
    const std::size_t bytes = report::save_baseline(path, b);
    out << "# Baseline saved: " << path << " (" << b.figures.size() << " figures)\n";
    if (const auto warning = report::baseline_too_large(path, bytes)) err << "gpunet-bench: warning: " << *warning << "\n";
    return true;
  } catch (const report::BaselineError& e) {
    err << "gpunet-bench: error: " << e.what() << "\n";
    return false;
  }
}

}  // namespace

report::AnalyseInputs analyse_inputs(const Config& cfg, const Acceptance& acc) {
  report::AnalyseInputs in;
  in.spec = acc.spec ? &*acc.spec : nullptr;
  in.baseline = acc.baseline ? &*acc.baseline : nullptr;
  in.baseline_file = cfg.baseline_path;
  if (acc.fabric) in.fabric = topo::fabric_json(*acc.fabric);
  if (cfg.training.given) in.training = cfg.training;
  in.baseline_figures = !cfg.save_baseline_path.empty() || !cfg.learn_baseline_path.empty();
  return in;
}

int print_judgement(const Config& cfg, const Acceptance& acc, const report::Analysed& a, std::ostream& out, std::ostream& err) {
  int code = 0;
  if (acc.spec)
    out << "# Acceptance: " << (acc.spec->name.empty() ? acc.spec->source : acc.spec->name) << "\n"
        << report::render_verdicts_console(a.judgement.verdicts);
  if (acc.baseline && a.judgement.comparison) {
    out << "# Baseline: " << cfg.baseline_path << "\n" << report::render_comparison_console(*a.judgement.comparison);
    if (!cfg.learn_baseline_path.empty() &&
        !save(cfg.learn_baseline_path, report::learn_noise(*acc.baseline, *a.figures, *a.judgement.comparison), out, err))
      code = 2;
  }
  out << report::section_console(report::problems_section(report::what_is_wrong(a.report, a.judgement)));
  if (!cfg.save_baseline_path.empty() && !save(cfg.save_baseline_path, *a.figures, out, err)) code = 2;
  return code;
}

void release_baseline(Acceptance& acc) {
  acc.baseline.reset();
#ifdef __GLIBC__
  malloc_trim(0);  // the outputs' threads allocate from malloc arenas of their own, which would not reuse it
#endif
}

int rejudge_stored_report(const Config& cfg, std::ostream& out, std::ostream& err) {
  // The acceptance files (a baseline of a million figures at 1,024 hosts) are read while the results are;
  // their error lines follow the results' lines, as when one was read after the other.
  std::ostringstream acceptance_err;
  auto acceptance = std::async(std::launch::async, [&]() -> std::optional<Acceptance> {
    try {
      return load_acceptance(cfg, acceptance_err);
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
  });
  auto loaded = report::load_results(cfg.report_input);
  for (const auto& w : loaded.warnings) err << "gpunet-bench report: " << w << "\n";
  if (!loaded.report) {
    err << "gpunet-bench report: " << loaded.error << "\n";
    return 2;
  }
  auto read = acceptance.get();
  err << acceptance_err.str();
  if (!read) return 2;
  Acceptance acc = *std::move(read);
  const report::Analysed a = report::analyse(std::move(*loaded.report), analyse_inputs(cfg, acc));
  const int judged = print_judgement(cfg, acc, a, out, err);
  release_baseline(acc);
  try {
    report::write_analysed_outputs(a, cfg.output_dir);
  } catch (const std::exception& e) {
    err << "gpunet-bench report: " << e.what() << " (choose a writable directory with -o)\n";
    return 2;
  }
  out << rendered_line(cfg.output_dir) << "\n" << report::run_verdict_console(a.judgement.verdict);
  const int recorded = cfg.history_path.empty() ? 0 : report::history::record_history(cfg.history_path, a, cfg.report_input, out, err);
  return std::max(run_exit_code(a, judged), recorded);
}

std::string rendered_line(const std::string& dir) {
  return "gpunet-bench report: wrote " + dir + "/{report.json,report.md,report.html,junit.xml,metrics.prom,*.csv}";
}

int run_exit_code(const report::Analysed& a, int judged) { return judged == 2 ? 2 : a.judgement.verdict.exit_code(); }

}  // namespace gpunet::bench
