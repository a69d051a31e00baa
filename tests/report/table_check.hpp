// Compares a computed figure with a figure printed in a reference table: they agree when the computed
// value rounds to the printed one at the printed number of decimals. Some table entries were rounded
// twice (from the 3-decimal output of ceilings_compute.py: 39.6548 -> 39.655 -> 39.66), so half a unit
// of the next decimal is allowed on top.
#pragma once

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

namespace gpunet::report::testing {

inline ::testing::AssertionResult matches_printed(double computed, const std::string& printed) {
  const auto dot = printed.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(printed.size() - dot - 1);
  const double tol = 0.55 * std::pow(10.0, -decimals) + 1e-9;
  const double want = std::strtod(printed.c_str(), nullptr);
  if (std::fabs(computed - want) <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "computed " << computed << " does not round to " << printed;
}

}  // namespace gpunet::report::testing
