// The `nccl` suite: NCCL collectives one GPU per rank, swept over sizes, timed with CUDA events,
// verified, with the transports NCCL chose, and (with --scaling) the scaling sweep.
#include "bench/engines/collective_report.hpp"
#include "bench/suites/nccl/suite.hpp"

#include <CLI/CLI.hpp>

#include "bench/core/console_lines.hpp"
#include "bench/core/sizes.hpp"
#include "bench/engines/patterns.hpp"
#include "bench/core/unmeasured.hpp"
#include "bench/engines/node_local.hpp"
#include "common/strings.hpp"
#include "gpunet/build_config.h"
#include "report/model/busbw.hpp"
#include "report/render/console.hpp"

#if GPUNET_HAVE_CUDA
#include "bench/suites/nccl/nccl_run.hpp"
#endif

namespace gpunet::bench {

namespace {

constexpr const char* kNcclCollectives = "allreduce,allgather,reduce_scatter,broadcast,reduce,alltoall,sendrecv";

void add_nccl_options(CLI::App& app, Config& c, OptionText& text) {
  const std::string g = "nccl suite";
  std::string& colls = text.at("--nccl-collectives") = "allreduce";
  app.add_option("--nccl-collectives", colls, std::string("Collectives for the nccl suite: ") + kNcclCollectives)
      ->type_name("LIST")
      ->capture_default_str()
      ->group(g);
  app.add_option("-G,--cudagraph", c.cuda_graph_launches,
                 "Capture each timed batch of the nccl suite as a CUDA graph and launch it this many times (0: launch directly)")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str()
      ->group(g);
  app.add_flag("--nccl-topo-dump", c.nccl_topo_dump, "Have NCCL write its topology XML per node into the output directory")
      ->group(g);
}

std::string finish_nccl_options(Config& c, const OptionText& text, const CLI::App&) {
  c.nccl_collectives = split_list(text.get("--nccl-collectives"));
  if (c.nccl_collectives.empty()) return "--nccl-collectives: empty list";
  for (const auto& n : c.nccl_collectives)
    if (!report::collective_from_string(n))
      return "--nccl-collectives: unknown collective '" + n + "' (known: " + kNcclCollectives + ")";
  return "";
}

std::string nccl_header(const Config& cfg, const MpiContext& mpi) {
  return report::console_sweep_header("nccl", mpi.size, mpi.num_nodes, to_string(cfg.reduction));
}

void run_nccl_suite(const SuiteContext& ctx) {
#if GPUNET_HAVE_CUDA
  gpu::run_nccl_suite_cuda(ctx);
#else
  if (ctx.mpi.is_root()) {
    auto r = skipped(ctx, "nccl", "collectives", "built without CUDA");
    r.ranks = ctx.mpi.size;
    ctx.emit(r);
  }
#endif
}

// A transport record: which path NCCL chose to a peer; every other record as a sweep suite's.
std::string nccl_console_line(const report::Record& r) {
  if (r.name != "transport" || !r.extra.contains("nccl")) return sweep_console_line(r);
  const auto& n = r.extra["nccl"];
  const auto text = [&n](const char* key) { return n.value(key, std::string()); };
  std::string line = "# nccl transport " + r.variant + " (" + r.host + "): " + n.value("transport", std::string("?"));
  if (n.contains("gdr") && n["gdr"].is_boolean())
    line += std::string(n["gdr"].get<bool>() ? " with" : " without") + " GPUDirect RDMA";
  if (!text("nic").empty()) line += ", NIC " + text("nic");
  if (!text("version").empty()) line += ", NCCL " + text("version");
  return line + "\n" + console_line_findings(r);
}

}  // namespace

PlanPart nccl_plan(const Config& c, int, int) {
  if (!GPUNET_HAVE_CUDA) return {"skipped (built without CUDA)", 0, "", 0};
  const size_t sizes = sweep_length(c.min_bytes, c.max_bytes, c.step_factor, c.step_bytes, 1'000'000);
  size_t points = 0;
  for (const auto& name : c.nccl_collectives) {
    const auto coll = report::collective_from_string(name);
    points += sizes * (coll && patterns::supports_in_place(*coll) ? 2 : 1);
  }
  PlanPart p = budgeted_points(std::to_string(points) + " points (" + std::to_string(c.nccl_collectives.size()) +
                                   " collectives x " + std::to_string(sizes) + " sizes, in and out of place)",
                               points, c.budget_s);
  p.left_out = std::string("communicator set-up") + (c.check ? ", buffer filling and checking on the host" : "") +
               (c.scaling ? ", the --scaling sweep" : "");
  return p;
}

Suite nccl_suite() {
  Suite s;
  s.name = "nccl";
  s.help = "NCCL collectives, one GPU per rank, timed with CUDA events (skipped without a GPU)";
  s.spec_tests = collective_spec_tests();
  s.spec_tests.push_back({"", "transport", {}, {}, "", false, {}});
  s.record_kind = collective_record_kind;
  s.add_options = add_nccl_options;
  s.finish_options = finish_nccl_options;
  s.run = run_nccl_suite;
  s.sweeps = true;
  s.unmeasured = collective_unmeasured;
  s.console = nccl_console_line;
  s.console_header = nccl_header;
  s.plan = nccl_plan;
  return s;
}

}  // namespace gpunet::bench
