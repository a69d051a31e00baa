// Command-line parsing for option tests: parse as the program would (with every suite of the list),
// and expect a one-line usage error.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bench/core/options.hpp"
#include "bench/suites/suite_list.hpp"

namespace gpunet::bench::option_tests {

inline ParseResult parse(std::vector<std::string> args) {
  args.insert(args.begin(), "gpunet-bench");
  return parse_options(args, suite_list());
}

// The parse fails with exit code 2 and one line that mentions `mentions`.
inline void expect_usage_error(std::vector<std::string> args, const std::string& mentions) {
  const auto r = parse(args);
  ASSERT_FALSE(r.config.has_value()) << mentions;
  EXPECT_EQ(r.exit_code, 2) << mentions;
  EXPECT_NE(r.message.find(mentions), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find('\n'), std::string::npos) << "must be one line: " << r.message;
}

}  // namespace gpunet::bench::option_tests
