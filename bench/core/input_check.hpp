// `gpunet-bench --check ...`: the options are parsed already; this loads every input file the
// command line names (--spec, --baseline, --topology-xml, a report's input) with the loaders a run
// uses and checks the output paths, measuring nothing and starting no MPI.
#pragma once

#include <iosfwd>

#include "bench/core/config.hpp"

namespace gpunet::bench {

// One line on `err` per problem; 2 when there was any, else 0 after one line on `out`.
int check_inputs(const Config& cfg, std::ostream& out, std::ostream& err);

}  // namespace gpunet::bench
