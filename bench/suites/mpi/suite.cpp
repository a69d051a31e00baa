// The mpi suite's entry: its options, its run (the sweeps, then the scaling sweep) and its console.
#include "bench/engines/collective_report.hpp"
#include "bench/suites/mpi/suite.hpp"

#include <CLI/CLI.hpp>


#include "bench/core/cli_size.hpp"
#include "bench/core/sizes.hpp"
#include "bench/core/console_lines.hpp"
#include "bench/core/unmeasured.hpp"
#include "common/strings.hpp"
#include "report/model/busbw.hpp"
#include "report/render/console.hpp"

namespace gpunet::bench {

namespace {

constexpr const char* kCollectives = "allreduce,allgather,reduce_scatter,broadcast,alltoall";

void add_mpi_options(CLI::App& app, Config& c, OptionText& text) {
  const std::string g = "mpi suite";
  std::string& colls = text.at("--collectives") = kCollectives;
  app.add_option("--collectives", colls, std::string("Collectives for the mpi suite: ") + kCollectives)
      ->type_name("LIST")
      ->default_str(kCollectives)
      ->group(g);
  app.add_flag("--scaling", c.scaling,
               "After the mpi and nccl sweeps, all_reduce on 1, 2, 4, ... whole nodes; names the node that makes busbw drop")
      ->group(g);
  add_size_option(app, "--scaling-size", c.scaling_bytes, "all_reduce size of the scaling sweep")
      ->default_str("the -e size")
      ->group(g);
}

std::string finish_mpi_options(Config& c, const OptionText& text, const CLI::App&) {
  c.collectives = split_list(text.get("--collectives"));
  if (c.collectives.empty()) return "--collectives: empty list";
  for (const auto& n : c.collectives)
    if (!report::collective_from_string(n) || n == "reduce" || n == "sendrecv")
      return "--collectives: unknown collective '" + n + "' (known: " + kCollectives + ")";
  return "";
}

void run_mpi_with_scaling(const SuiteContext& ctx) {
  run_mpi_suite(ctx);
  if (ctx.cfg.scaling) run_mpi_scaling(ctx);
}

std::string mpi_header(const Config& cfg, const MpiContext& mpi) {
  return report::console_sweep_header("mpi", mpi.size, mpi.num_nodes, to_string(cfg.reduction));
}

// Each collective at each size: about --budget of timed iterations (warm-up and the data check aside).
PlanPart mpi_plan(const Config& c, int, int) {
  const size_t sizes = sweep_length(c.min_bytes, c.max_bytes, c.step_factor, c.step_bytes, 1'000'000);
  PlanPart p = budgeted_points(std::to_string(c.collectives.size()) + " collectives x " + std::to_string(sizes) + " sizes",
                               c.collectives.size() * sizes, c.budget_s);
  p.left_out = std::string("sizes whose --iters take longer than --budget") + (c.scaling ? ", the --scaling sweep" : "");
  return p;
}

}  // namespace

Suite mpi_suite() {
  Suite s;
  s.name = "mpi";
  s.help = "host-memory MPI collectives swept over sizes (busbw as nccl-tests); --scaling adds the node sweep";
  s.spec_tests = collective_spec_tests();
  s.record_kind = collective_record_kind;
  s.sweeps = true;
  s.unmeasured = collective_unmeasured;
  s.add_options = add_mpi_options;
  s.finish_options = finish_mpi_options;
  s.run = run_mpi_with_scaling;
  s.console = sweep_console_line;
  s.console_header = mpi_header;
  s.plan = mpi_plan;
  return s;
}

}  // namespace gpunet::bench
