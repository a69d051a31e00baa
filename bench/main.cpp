#include <iostream>

#include "bench/acceptance.hpp"
#include "bench/app.hpp"
#include "bench/options.hpp"
#include "report/outputs.hpp"

int main(int argc, char** argv) {
  const auto parsed = gpunet::bench::parse_options({argv, argv + argc});
  if (!parsed.config) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << "\n";
    return parsed.exit_code;
  }
  const auto& cfg = *parsed.config;
  if (!cfg.report_input.empty() && (!cfg.spec_path.empty() || !cfg.baseline_path.empty() || !cfg.save_baseline_path.empty()))
    return gpunet::bench::rejudge_stored_report(cfg, std::cout, std::cerr);
  if (!parsed.config->report_input.empty())
    return gpunet::report::rerender(parsed.config->report_input, parsed.config->output_dir, std::cerr);
  if (!parsed.config->topology_xml.empty()) return gpunet::bench::run_topology_file(*parsed.config);
  return gpunet::bench::run_benchmark(*parsed.config, argc, argv);
}
