#include <iostream>
#include <new>

#include "bench/core/acceptance.hpp"
#include "bench/core/app.hpp"
#include "bench/core/input_check.hpp"
#include "bench/core/options.hpp"
#include "bench/suites/topo/suite.hpp"
#include "report/outputs.hpp"

namespace {

int run(int argc, char** argv) {
  const auto parsed = gpunet::bench::parse_options({argv, argv + argc});
  if (!parsed.config) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << "\n";
    return parsed.exit_code;
  }
  if (parsed.config->check_inputs) return gpunet::bench::check_inputs(*parsed.config, std::cout, std::cerr);
  const auto& cfg = *parsed.config;
  if (!cfg.report_input.empty() && (!cfg.spec_path.empty() || !cfg.baseline_path.empty() || !cfg.save_baseline_path.empty()))
    return gpunet::bench::rejudge_stored_report(cfg, std::cout, std::cerr);
  if (!parsed.config->report_input.empty())
    return gpunet::report::rerender(parsed.config->report_input, parsed.config->output_dir, std::cerr,
                                    parsed.config->training.given ? std::optional(parsed.config->training) : std::nullopt);
  if (!parsed.config->topology_xml.empty()) return gpunet::bench::run_topology_file(*parsed.config);
  return gpunet::bench::run_benchmark(*parsed.config, argc, argv);
}

}  // namespace

// Whatever escapes is one line and exit code 3 (runtime failure), never an abort.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "gpunet-bench: error: out of memory (lower -e, --scaling-size, --node-size or --pcie-size, "
                 "or run fewer ranks per node)\n";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    std::cerr << "gpunet-bench: error: " << what.substr(0, what.find('\n')) << "\n";
  }
  return 3;
}
