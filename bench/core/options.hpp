// Command-line parsing into the immutable Config. Strict: an unknown option or a bad value is a
// usage error (exit code 2) with one line that names it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/core/config.hpp"

namespace gpunet::bench {

// The names of the suites that run by default, in order (bench/suites/suite_list.hpp).
std::vector<std::string> known_suites();

struct ParseResult {
  std::optional<Config> config;  // set when the program should run
  int exit_code = 0;             // when config is empty: 0 for --help/--version, 2 for errors
  std::string message;           // help text, version, or the one-line error
};

ParseResult parse_options(const std::vector<std::string>& args);  // args[0] is the program name

}  // namespace gpunet::bench
