#include <iostream>

#include "bench/options.hpp"

int main(int argc, char** argv) {
  const auto parsed = gpunet::bench::parse_options({argv, argv + argc});
  if (!parsed.config) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message << "\n";
    return parsed.exit_code;
  }
  return 0;
}
