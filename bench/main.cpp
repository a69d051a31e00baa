#include <iostream>

#include "bench/app.hpp"
#include "bench/options.hpp"
#include "report/outputs.hpp"

int main(int argc, char** argv) {
  const auto parsed = gpunet::bench::parse_options({argv, argv + argc});
  if (!parsed.config) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << "\n";
    return parsed.exit_code;
  }
  if (!parsed.config->report_input.empty())
    return gpunet::report::rerender(parsed.config->report_input, parsed.config->output_dir, std::cerr,
                                    parsed.config->training.given ? std::optional(parsed.config->training) : std::nullopt);
  if (!parsed.config->topology_xml.empty()) return gpunet::bench::run_topology_file(*parsed.config);
  return gpunet::bench::run_benchmark(*parsed.config, argc, argv);
}
