#include "bench/acceptance.hpp"

#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "report/verdicts.hpp"

namespace gpunet::bench {

Acceptance load_acceptance(const Config& cfg, std::ostream& err) {
  Acceptance acc;
  try {
    if (!cfg.spec_path.empty()) acc.spec = report::load_spec(cfg.spec_path);
    if (!cfg.baseline_path.empty()) acc.baseline = report::load_baseline(cfg.baseline_path);
  } catch (const std::exception& e) {
    err << "gpunet-bench: error: " << e.what() << "\n";
    throw std::invalid_argument("acceptance input");
  }
  if (!cfg.save_baseline_path.empty()) {
    const auto dir = std::filesystem::absolute(cfg.save_baseline_path).parent_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
      err << "gpunet-bench: error: --save-baseline " << cfg.save_baseline_path << ": directory " << dir.string()
          << " does not exist (create it first)\n";
      throw std::invalid_argument("save-baseline");
    }
  }
  return acc;
}

int judge_report(const Config& cfg, const Acceptance& acc, report::Report& rep, std::ostream& out, std::ostream& err) {
  int code = 0;
  if (acc.spec) {
    const auto verdicts = report::evaluate(rep, *acc.spec);
    report::attach_verdicts(rep, *acc.spec, verdicts);
    out << "# Acceptance: " << (acc.spec->name.empty() ? acc.spec->source : acc.spec->name) << "\n"
        << report::render_verdicts_console(verdicts);
    code = std::max(code, report::verdict_exit_code(verdicts));
  }
  const auto now = report::make_baseline(rep, acc.baseline ? acc.baseline->rule : report::CompareRule{});
  if (acc.baseline) {
    const auto cmp = report::compare(*acc.baseline, now);
    report::attach_comparison(rep, cfg.baseline_path, acc.baseline->rule, cmp);
    out << "# Baseline: " << cfg.baseline_path << "\n" << report::render_comparison_console(cmp);
    code = std::max(code, report::regression_exit_code(cmp));
  }
  if (!cfg.save_baseline_path.empty()) {
    try {
      report::save_baseline(cfg.save_baseline_path, now);
      out << "# Baseline saved: " << cfg.save_baseline_path << " (" << now.figures.size() << " figures)\n";
    } catch (const report::BaselineError& e) {
      err << "gpunet-bench: error: " << e.what() << "\n";
      code = 2;
    }
  }
  return code;
}

}  // namespace gpunet::bench
