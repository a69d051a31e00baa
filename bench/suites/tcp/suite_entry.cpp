// The tcp suite's entry in the suite list.
#include <CLI/CLI.hpp>

#include "bench/core/unmeasured.hpp"
#include "bench/suites/tcp/console.hpp"
#include "bench/suites/tcp/options.hpp"
#include "bench/suites/tcp/plan.hpp"
#include "bench/suites/tcp/suite.hpp"

namespace gpunet::bench::tcp {

Suite tcp_suite() {
  Suite s;
  s.name = "tcp";
  s.help = "TCP goodput between nodes (neighbours, the all-pairs matrix, one-to-many, many-to-one, the fabric's uplinks) and latency";
  s.metrics = {"tcp.", "fabric."};
  s.add_options = add_options;
  s.finish_options = finish_options;
  s.run = run_tcp_suite;
  s.console = console_line;
  s.unmeasured = pingpong_unmeasured;
  s.plan = tcp_plan;
  return s;
}

}  // namespace gpunet::bench::tcp
