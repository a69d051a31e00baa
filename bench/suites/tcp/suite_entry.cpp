// The tcp suite's entry in the suite list.
#include <CLI/CLI.hpp>

#include "bench/core/unmeasured.hpp"
#include "bench/suites/tcp/console.hpp"
#include "bench/suites/tcp/options.hpp"
#include "bench/suites/tcp/plan.hpp"
#include "bench/suites/tcp/suite.hpp"

namespace gpunet::bench::tcp {

namespace {

report::RecordKind tcp_record_kind(const report::Record& r) {
  if (r.name == "bandwidth") return report::RecordKind::tcp_flow;
  if (r.name == "aggregate") return report::RecordKind::tcp_group;
  if (r.name == "matrix") return report::RecordKind::tcp_matrix;
  if (r.name == "latency") return report::RecordKind::tcp_latency;
  if (r.name == "congestion") return report::RecordKind::tcp_congestion;
  if (r.name == "fabric") return report::RecordKind::tcp_fabric;
  return report::RecordKind::tcp_other;
}

// A test kind (a bandwidth record's variant) may stand for the test; a bandwidth promise that names
// no kind judges the flows that had their path to themselves. A bandwidth promise reads the goodput.
std::vector<report::KnownTest> tcp_spec_tests() {
  const std::string goodput = "extra.goodput_Gbps";
  const std::vector<report::KnownMetric> rate = {{"goodput", goodput}}, time = {{"latency", "time_us.p50"}};
  return {{"", "bandwidth", {"neighbours", "matrix", "one-to-many", "many-to-one", "retest"},
           {"one-to-many", "many-to-one", "retest"}, goodput, false, rate},
          {"", "aggregate", {"one-to-many", "many-to-one"}, {}, goodput, false, rate},
          {"", "latency", {}, {}, goodput, false, time},
          {"", "matrix", {}, {}, goodput, false, rate}};
}

}  // namespace

Suite tcp_suite() {
  Suite s;
  s.name = "tcp";
  s.help = "TCP goodput between nodes (neighbours, the all-pairs matrix, one-to-many, many-to-one, the fabric's uplinks, "
           "congestion impact) and latency";
  s.spec_tests = tcp_spec_tests();
  s.record_kind = tcp_record_kind;
  s.add_options = add_options;
  s.finish_options = finish_options;
  s.run = run_tcp_suite;
  s.console = console_line;
  s.unmeasured = pingpong_unmeasured;
  s.plan = tcp_plan;
  return s;
}

}  // namespace gpunet::bench::tcp
