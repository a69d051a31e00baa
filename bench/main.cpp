#include <iostream>

#include "bench/app.hpp"
#include "bench/options.hpp"

int main(int argc, char** argv) {
  const auto parsed = gpunet::bench::parse_options({argv, argv + argc});
  if (!parsed.config) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << "\n";
    return parsed.exit_code;
  }
  if (!parsed.config->report_input.empty()) {
    std::cerr << "gpunet-bench: error: offline re-rendering is not built yet\n";
    return 2;
  }
  return gpunet::bench::run_benchmark(*parsed.config, argc, argv);
}
