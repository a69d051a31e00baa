// The benchmark run: MPI up, output directory, control plane, suites in order, report at rank 0.
#pragma once

#include "bench/core/config.hpp"
#include "bench/core/suite.hpp"

namespace gpunet::bench {

// Exit code: 0 all good, 1 wrong result or failed verdict, 2 usage/input error, 3 runtime failure.
// `suites` are the suites cfg.suites names (bench/main.cpp hands in bench/suites/suite_list).
int run_benchmark(const Config& cfg, SuiteList suites, int& argc, char**& argv);

}  // namespace gpunet::bench
