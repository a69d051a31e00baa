// The list of all suites, in default run order (bench/suites/suite_list.cpp). Options, --suites,
// --help, the console and the report iterate it.
#pragma once

#include <string>
#include <vector>

#include "bench/core/suite.hpp"

namespace gpunet::bench {

const std::vector<Suite>& suite_list();
// The suite of that name, or null.
const Suite* find_suite(const std::string& name);
// "topo,mpi,tcp,...": the names in list order of the suites that run by default (or, with false,
// of those that run only when --suites names them).
std::string suite_names(bool by_default = true);

}  // namespace gpunet::bench
