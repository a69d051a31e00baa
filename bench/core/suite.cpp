#include "bench/core/suite.hpp"

namespace gpunet::bench {

const Suite* find_suite(SuiteList suites, const std::string& name) {
  for (const auto& s : suites)
    if (s.name == name) return &s;
  return nullptr;
}

std::string suite_names(SuiteList suites, bool by_default) {
  std::string out;
  for (const auto& s : suites)
    if (s.by_default == by_default) out += (out.empty() ? "" : ",") + s.name;
  return out;
}

}  // namespace gpunet::bench
