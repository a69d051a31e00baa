// The list of all suites, in default run order (bench/suites/suite_list.cpp). bench/main.cpp hands it
// to the core; options, --suites, --help, the console and the report iterate it.
#pragma once

#include "bench/core/suite.hpp"

namespace gpunet::bench {

SuiteList suite_list();

}  // namespace gpunet::bench
