// The `pcie` suite: host<->device copies per GPU (H2D, D2H, both at once), from pinned and pageable
// host memory on the GPU's NUMA node and on a remote one, then all GPUs of the node at once. Runs on
// each node leader; timed with CUDA events; every buffer's data is verified. Each record carries
// extra.pcie (the link's generation, width and MPS, read right after the copies while the link is
// trained up) for the report's raw and TLP-adjusted ceiling.
#include <algorithm>
#include <array>
#include <memory>

#include "bench/engines/cuda_device.hpp"
#include "bench/engines/pcie_link.hpp"
#include "bench/engines/wait.hpp"
#include "bench/core/measure/mpi_timer.hpp"
#include "bench/engines/numa.hpp"
#include "bench/core/sizes.hpp"
#include "bench/core/step_progress.hpp"
#include "bench/suites/pcie/suite.hpp"

#include <CLI/CLI.hpp>

#include "bench/core/cli_size.hpp"
#include "bench/core/console_lines.hpp"
#include "bench/engines/node_local.hpp"
#include "report/model/busbw.hpp"

namespace gpunet::bench {

namespace {

using gpu::CopyCase;
using gpu::CopyDir;
using gpu::HostKind;

struct Placement {
  std::string label;  // local, remote, default
  int numa = -1;
};

// Host NUMA nodes to copy from: the GPU's own and one other, where the machine has them.
std::vector<Placement> placements(int gpu_numa, std::string& why_no_remote) {
  if (gpu_numa < 0) {
    why_no_remote = "the GPU reports no NUMA node";
    return {{"default", -1}};
  }
  std::vector<Placement> out{{"local", gpu_numa}};
  for (int n : node::memory_nodes())
    if (n != gpu_numa) {
      out.push_back({"remote", n});
      return out;
    }
  why_no_remote = "this node has one NUMA node";
  return out;
}

// pcie.h2d, pcie.d2h, pcie.bidir: the copy rate of one GPU's link or of all of a node's at once.
report::Figure copy_figure(const report::Record& rec, report::Subject subject, report::PathModel path) {
  report::Figure f = report::rate_figure("pcie." + rec.name, rec.algbw_GBps, "GB/s", std::move(subject), path);
  f.parameters = {{"bytes", std::to_string(rec.bytes)}, {"variant", rec.variant}};
  // algbw is bytes / mean time, so each batch's rate scales with 1 / its mean time.
  f.samples = report::rates_per_batch(rec.algbw_GBps, rec.time_us.mean, measure::batch_means_us(rec));
  return f;
}

// cudaEventElapsedTime resolves about half a microsecond; a 256 MiB copy lasts milliseconds.
constexpr double kCopyEventResolution_s = 5e-7;

void fill_timing(report::Record& rec, const measure::Timing& timing, int64_t bytes_per_direction) {
  measure::record_timing(rec, timing);
  rec.algbw_GBps = report::algbw_GBps(bytes_per_direction, rec.time_us.mean * 1e-6);
}

void check_data(report::Record& rec, int64_t wrong) {
  rec.wrong = wrong;
  rec.check = wrong == 0 ? "ok" : "wrong";
  if (wrong) {
    rec.status = report::Status::failed;
    rec.reason = std::to_string(wrong) + " wrong bytes after the copy";
  }
}

constexpr std::array kDirections{CopyDir::h2d, CopyDir::d2h, CopyDir::bidir};
constexpr std::array kHostKinds{HostKind::pinned, HostKind::pageable};

class PcieRun {
 public:
  explicit PcieRun(const SuiteContext& ctx) : ctx_(ctx), timeout_(gpu::gpu_wait_timeout_s(ctx.cfg.timeout_s)), steps_(ctx) {}

  // The steps: each GPU's copies (direction x host memory x placement), then all GPUs at once.
  void plan(const std::vector<gpu::GpuInfo>& gpus) {
    for (const auto& g : gpus) {
      std::string why;
      steps_.plan(static_cast<int>(kDirections.size() * kHostKinds.size() * placements(gpu::read_pcie_link("/sys", g.bus_id).numa_node, why).size()));
    }
    if (gpus.size() > 1) steps_.plan(static_cast<int>(kDirections.size()));
  }

  void one_gpu(const gpu::GpuInfo& g) {
    const auto link = gpu::read_pcie_link("/sys", g.bus_id);
    std::string why;
    const auto where = placements(link.numa_node, why);
    for (CopyDir dir : kDirections)
      for (HostKind kind : kHostKinds) {
        for (const auto& p : where) measure_one(g, dir, kind, p);
        if (where.size() < 2) {
          auto r = skipped(ctx_, "pcie", to_string(dir), "remote NUMA node: " + why);
          r.variant = "gpu" + std::to_string(g.ordinal) + " " + to_string(kind) + " remote";
          ctx_.emit(r);
        }
      }
  }

  void all_gpus(const std::vector<gpu::GpuInfo>& gpus) {
    for (CopyDir dir : kDirections) {
      const std::string label = "all " + std::to_string(gpus.size()) + " gpus pinned local";
      auto rec = base_record(dir, label);
      steps_.start_paced(to_string(dir) + " " + label, ctx_.cfg.pcie_bytes);
      std::vector<std::unique_ptr<CopyCase>> cases;
      gpunet::json links = gpunet::json::array();
      for (const auto& g : gpus) {
        const auto link = gpu::read_pcie_link("/sys", g.bus_id);
        cases.push_back(std::make_unique<CopyCase>(g.ordinal, dir, HostKind::pinned, link.numa_node, ctx_.cfg.pcie_bytes));
      }
      const auto timing = timed(rec.variant, [&] {
        for (auto& c : cases) c->launch();
        double longest = 0;
        for (auto& c : cases) longest = std::max(longest, c->wait_s(timeout_));
        return longest;
      });
      const auto total = static_cast<int64_t>(gpus.size()) * ctx_.cfg.pcie_bytes;
      fill_timing(rec, timing, total);
      for (const auto& g : gpus) links.push_back(gpu::to_json(gpu::read_pcie_link("/sys", g.bus_id)));
      int64_t wrong = 0;
      for (auto& c : cases) wrong += c->wrong_bytes();
      check_data(rec, wrong);
      rec.extra["gpus"] = gpus.size();
      rec.extra["links"] = links;
      if (dir == CopyDir::bidir) rec.extra["total_GBps"] = 2 * rec.algbw_GBps;
      rec.figure = copy_figure(rec, report::host_subject(rec.host), report::PathModel::none);
      ctx_.emit(rec);
    }
  }

 private:
  report::Record base_record(CopyDir dir, const std::string& variant) const {
    auto rec = ctx_.record("pcie", to_string(dir));
    rec.ranks = 1;
    rec.variant = variant;
    rec.bytes = ctx_.cfg.pcie_bytes;
    rec.extra["reduction"] = "none (one process per node)";
    return rec;
  }

  // Each copy is timed by its own CUDA events; the measurement layer batches and counts them.
  measure::Timing timed(const std::string& what, const std::function<double()>& once_s) {
    return measure::measure(ctx_.control, "pcie " + what + " " + format_size(ctx_.cfg.pcie_bytes), StepScope::this_rank,
                            measure::rules_of(ctx_.cfg), measure::self_timed("cudaEvent", kCopyEventResolution_s, once_s));
  }

  void measure_one(const gpu::GpuInfo& g, CopyDir dir, HostKind kind, const Placement& p) {
    auto rec = base_record(dir, "gpu" + std::to_string(g.ordinal) + " " + to_string(kind) + " " + p.label);
    steps_.start_paced(to_string(dir) + " " + rec.variant, ctx_.cfg.pcie_bytes);
    CopyCase c(g.ordinal, dir, kind, p.numa, ctx_.cfg.pcie_bytes);
    const auto timing = timed(to_string(dir) + " " + rec.variant, [&] { return c.run_s(timeout_); });
    auto link = gpu::read_pcie_link("/sys", g.bus_id);  // right after the copies: the link is trained up
    fill_timing(rec, timing, ctx_.cfg.pcie_bytes);
    check_data(rec, c.wrong_bytes());
    gpunet::json pcie = gpu::to_json(link);
    pcie["gpu_index"] = g.ordinal;
    if (c.host_numa() >= 0) pcie["host_numa"] = c.host_numa();
    rec.extra["pcie"] = pcie;
    rec.extra["gpu_index"] = g.ordinal;
    rec.extra["gpu"] = g.name;
    rec.extra["host_memory"] = to_string(kind);
    rec.extra["numa_placement"] = p.label;
    if (dir == CopyDir::bidir) rec.extra["total_GBps"] = 2 * rec.algbw_GBps;
    rec.figure = copy_figure(rec, report::gpu_subject(rec.host, g.ordinal), copy_path(kind));
    ctx_.emit(rec);
  }

  const SuiteContext& ctx_;
  const double timeout_;
  StepProgress steps_;  // rank 0 shows it; each copy's time depends on its adaptive iteration count
};

void run_pcie_on_leader(const SuiteContext& ctx) {
  const auto probe = gpu::probe_gpus();
  if (!probe.ok()) {
    ctx.emit(skipped(ctx, "pcie", "copies", probe.reason));
    return;
  }
  std::vector<gpu::GpuInfo> gpus;
  std::string step = "pcie setup";
  try {
    for (int d = 0; d < probe.count; ++d) gpus.push_back(gpu::gpu_info(d));
    PcieRun run(ctx);
    run.plan(gpus);
    for (const auto& g : gpus) {
      step = "pcie gpu" + std::to_string(g.ordinal);
      run.one_gpu(g);
    }
    if (gpus.size() > 1) {
      step = "pcie all gpus";
      run.all_gpus(gpus);
    }
  } catch (const std::exception& e) {
    ctx.emit(failed_in(ctx, "pcie", "copies", step, e.what()));
  }
}

void run_pcie_suite(const SuiteContext& ctx) { on_node_leaders(ctx, [&] { run_pcie_on_leader(ctx); }); }

void add_pcie_options(CLI::App& app, Config& c, OptionText&) {
  add_size_option(app, "--pcie-size", c.pcie_bytes, "Bytes per host<->device copy (pcie and node suites)")
      ->default_str("256M")
      ->group("pcie suite");
}

// Its copies are named by direction (h2d, d2h, bidir); other records are checks and skips.
report::RecordKind pcie_record_kind(const report::Record& r) {
  return r.name == "h2d" || r.name == "d2h" || r.name == "bidir" ? report::RecordKind::pcie_copy : report::RecordKind::other;
}

}  // namespace

report::PathModel copy_path(gpu::HostKind kind) {
  return kind == gpu::HostKind::pinned ? report::PathModel::pcie_link : report::PathModel::none;
}

Suite pcie_suite() {
  Suite s;
  s.name = "pcie";
  s.help = "host<->device copies per GPU, pinned and pageable, near and far NUMA node (skipped without a GPU)";
  for (const char* test : {"h2d", "d2h", "bidir"})  // the figure pcie.<test> (GB/s per direction)
    s.spec_tests.push_back({"", test, {}, {}, "", false, {{test, "algbw_GBps"}}});
  s.record_kind = pcie_record_kind;
  s.add_options = add_pcie_options;
  s.run = run_pcie_suite;
  s.console = copy_console_line;
  return s;
}

}  // namespace gpunet::bench
