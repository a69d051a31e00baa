// The benchmark run: MPI up, output directory, control plane, suites in order, report at rank 0.
#pragma once

#include "bench/config.hpp"

namespace gpunet::bench {

// Exit code: 0 all good, 1 wrong result or failed verdict, 2 usage/input error, 3 runtime failure.
int run_benchmark(const Config& cfg, int& argc, char**& argv);

// --topology-xml FILE: analyse the file, print matrix and findings. 0, or 2 for a bad file. No MPI.
int run_topology_file(const Config& cfg);

}  // namespace gpunet::bench
