// Command-line parsing into the immutable Config. Strict: an unknown option or a bad value is a
// usage error (exit code 2) with one line that names it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/core/config.hpp"
#include "bench/core/suite.hpp"

namespace gpunet::bench {

struct ParseResult {
  std::optional<Config> config;  // set when the program should run
  int exit_code = 0;             // when config is empty: 0 for --help/--version, 2 for errors
  std::string message;           // help text, version, or the one-line error
};

// args[0] is the program name; `known` are the suites whose names --suites takes and whose options
// the parser adds (bench/main.cpp hands in bench/suites/suite_list).
ParseResult parse_options(const std::vector<std::string>& args, SuiteList known);

}  // namespace gpunet::bench
