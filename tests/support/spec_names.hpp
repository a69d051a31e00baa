// What a spec may name in tests: every suite's tests, from the suite list, as the program reads specs.
#pragma once

#include "bench/core/suite.hpp"
#include "bench/suites/suite_list.hpp"
#include "report/judge/figure_select.hpp"

namespace gpunet::test_support {

inline const report::KnownTests& suite_spec_names() {
  static const report::KnownTests names = bench::spec_names(bench::suite_list());
  return names;
}

}  // namespace gpunet::test_support
