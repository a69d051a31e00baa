// The `node` suite: node-local micro-benchmarks on each node leader. Host memory bandwidth per NUMA
// node (read, write, copy, triad; one thread and every CPU of the node, buffers and threads on that
// node), timed by the measurement layer on the steady clock, one pass of a thread team over the whole
// array per iteration; and, where a GPU is present, pinned H2D/D2H copies per GPU with Google
// Benchmark, timed with CUDA events (manual time), turned into Records by a RecordReporter.
#include <algorithm>
#include <memory>

#include "bench/engines/cuda_device.hpp"
#include "bench/engines/pcie_link.hpp"
#include "bench/engines/wait.hpp"
#include "bench/suites/node/gbench_records.hpp"
#include "bench/suites/node/membw.hpp"
#include "bench/engines/numa.hpp"
#include "bench/suites/node/thread_team.hpp"
#include "bench/core/measure/measurement.hpp"
#include "bench/core/step_progress.hpp"
#include "report/model/busbw.hpp"
#include "report/model/figure.hpp"
#include "bench/core/sizes.hpp"
#include "bench/suites/node/suite.hpp"

#include <CLI/CLI.hpp>

#include "bench/core/cli_float.hpp"
#include "bench/core/cli_size.hpp"
#include "bench/core/console_lines.hpp"
#include "bench/engines/node_local.hpp"

namespace gpunet::bench {

namespace {

using node::BenchMeta;

constexpr double kScalar = 3.0;

// The thread counts the memory kernels run with on a NUMA node: one, and every CPU of the node.
std::vector<int> thread_counts(size_t cpus) {
  std::vector<int> threads{1};
  if (cpus > 1) threads.push_back(static_cast<int>(cpus));
  return threads;
}

class NodeBench {
 public:
  explicit NodeBench(const SuiteContext& ctx)
      : ctx_(ctx), steps_(ctx), reporter_(base(ctx), meta_, [this](report::Record r) { pending_.push_back(std::move(r)); }) {}

  // The steps: one per kernel and thread count on each NUMA node, each lasting its repetitions.
  void plan_memory(const std::vector<int>& numa_nodes) {
    for (int numa : numa_nodes)
      steps_.plan(static_cast<int>(node::all_mem_kernels().size() * thread_counts(node::node_cpus(numa).size()).size()), membw_s());
  }
  // One step per GPU: its two copy benchmarks.
  void plan_pcie(int gpus) { steps_.plan(gpus, pcie_s()); }

  void memory(int numa) {
    const auto cpus = node::node_cpus(numa);
    const std::vector<int> threads = thread_counts(cpus.size());
    const auto elems = static_cast<size_t>(std::max<int64_t>(ctx_.cfg.node_bytes / 8, 1024));
    // The three arrays in one buffer, page-aligned, each two pages past the end of the one before. Three
    // mappings of 128 MiB lie back to back, exactly 2^27 B apart, and there the 1-thread triad ran ~10 %
    // slower than over the plain loop's arrays, which malloc puts 128 MiB + 4 KiB apart (STREAM's
    // OFFSET is there for the same reason).
    constexpr size_t kPage = 4096, kGap = 2 * kPage;
    const size_t stride = (elems * 8 + kPage - 1) / kPage * kPage + kGap;
    node::NodeBuffer arrays(3 * stride, numa);
    auto* pa = reinterpret_cast<double*>(arrays.data());
    auto* pb = reinterpret_cast<double*>(arrays.data() + stride);
    auto* pc = reinterpret_cast<double*>(arrays.data() + 2 * stride);
    std::fill(pb, pb + elems, 1.0);
    std::fill(pc, pc + elems, 2.0);
    for (node::MemKernel k : node::all_mem_kernels()) {
      std::fill(pa, pa + elems, -1.0);
      std::vector<report::Record> records;
      for (int t : threads) {
        std::vector<double> results(static_cast<size_t>(t));  // each member's kernel result: kept, so never dropped
        node::ThreadTeam team(t, numa, [&](int m, int n) {
          const auto [lo, hi] = node::slice(elems, m, n);
          results[static_cast<size_t>(m)] = node::run_kernel(k, pa, pb, pc, lo, hi, kScalar);
        });
        steps_.start_planned("membw numa" + std::to_string(numa) + " " + node::to_string(k) + " " + threads_label(t), membw_s());
        const auto timing = measure::measure(ctx_.control, "node membw numa" + std::to_string(numa) + " " + node::to_string(k),
                                             StepScope::this_rank, membw_rules(), measure::steady_clock_timer([&] { team.pass(); }));
        auto r = base(ctx_);
        r.name = "membw_" + node::to_string(k);
        r.variant = "numa" + std::to_string(numa) + " " + threads_label(t);
        r.bytes = node::kernel_bytes(k, static_cast<int64_t>(elems));
        measure::record_timing(r, timing);
        r.algbw_GBps = report::algbw_GBps(r.bytes, r.time_us.mean * 1e-6);
        r.extra.update({{"numa_node", numa}, {"kernel", node::to_string(k)}, {"array_bytes", elems * 8},
                        {"cpus", cpus.size()}, {"placed_on_numa", node::node_of_address(pb)}, {"threads", t}});
        r.figure = membw_figure(r, k, numa, t);
        records.push_back(std::move(r));
      }
      pending_ = std::move(records);
      // What the kernel left in a: read leaves it alone; write, copy and triad define every element.
      const double want = k == node::MemKernel::write ? kScalar : k == node::MemKernel::copy ? 1.0 : 1.0 + kScalar * 2.0;
      const auto wrong = k == node::MemKernel::read ? -1 : std::count_if(pa, pa + elems, [&](double x) { return x != want; });
      mark(wrong, "elements");
      flush();
    }
  }

  void pcie(const gpu::GpuInfo& g) {
    const auto link = gpu::read_pcie_link("/sys", g.bus_id);
    const double timeout = gpu::gpu_wait_timeout_s(ctx_.cfg.timeout_s);
    std::vector<std::unique_ptr<gpu::CopyCase>> cases;
    for (gpu::CopyDir dir : {gpu::CopyDir::h2d, gpu::CopyDir::d2h}) {
      cases.push_back(std::make_unique<gpu::CopyCase>(g.ordinal, dir, gpu::HostKind::pinned, link.numa_node, ctx_.cfg.pcie_bytes));
      gpu::CopyCase* c = cases.back().get();
      const std::string key = "pcie_" + to_string(dir) + "/gpu" + std::to_string(g.ordinal);
      gpunet::json pcie = gpu::to_json(link);
      pcie["gpu_index"] = g.ordinal;
      if (c->host_numa() >= 0) pcie["host_numa"] = c->host_numa();
      meta_[key] = {"node", "pcie_" + to_string(dir), "gpu" + std::to_string(g.ordinal) + " pinned",
                    ctx_.cfg.pcie_bytes, {{"pcie", pcie}, {"gpu_index", g.ordinal}, {"gpu", g.name}}};
      auto* bm = benchmark::RegisterBenchmark(key.c_str(), [c, timeout](benchmark::State& st) {
        for (auto _ : st) st.SetIterationTime(c->run_s(timeout));
      });
      configure(bm)->UseManualTime();
    }
    steps_.start_planned("pcie gpu" + std::to_string(g.ordinal), pcie_s());
    run("node pcie gpu" + std::to_string(g.ordinal));
    int64_t wrong = 0;
    for (auto& c : cases) wrong += c->wrong_bytes();
    mark(wrong, "bytes");
    flush();
  }

 private:
  static std::string threads_label(int t) { return t > 1 ? std::to_string(t) + " threads" : "1 thread"; }
  // Planned seconds of a step: each timed benchmark lasts its repetitions of --node-min-time.
  double membw_s() const { return ctx_.cfg.node_min_time_s * ctx_.cfg.node_repetitions; }
  double pcie_s() const { return 2 * membw_s(); }  // h2d and d2h

  static report::Record base(const SuiteContext& ctx) {
    auto r = ctx.record("node", "");
    r.ranks = 1;
    return r;
  }

  // Google Benchmark's conventions for the memory kernels: --node-repetitions samples, each a batch
  // of passes lasting --node-min-time.
  // node.membw.<kernel> on this host, one NUMA node and thread count; a sample per timed batch.
  static report::Figure membw_figure(const report::Record& r, node::MemKernel k, int numa, int threads) {
    report::Figure f = report::rate_figure("node.membw." + node::to_string(k), r.algbw_GBps, "GB/s",
                                           report::host_subject(r.host), report::PathModel::none);
    f.parameters = {{"numa", std::to_string(numa)}, {"threads", std::to_string(threads)}, {"memory", "host"}};
    f.samples = report::rates_per_batch(r.algbw_GBps, r.time_us.mean, measure::batch_means_us(r));
    return f;
  }

  measure::Rules membw_rules() const {
    measure::Rules r;
    r.warmup_iters = 1;
    r.budget = {ctx_.cfg.node_repetitions, ctx_.cfg.max_iters, ctx_.cfg.node_min_time_s * ctx_.cfg.node_repetitions};
    r.fixed_batches = ctx_.cfg.node_repetitions;
    return r;
  }

  benchmark::internal::Benchmark* configure(benchmark::internal::Benchmark* bm) const {
    return bm->MinTime(ctx_.cfg.node_min_time_s)->Repetitions(ctx_.cfg.node_repetitions)->Unit(benchmark::kMicrosecond);
  }

  void run(const std::string& step) {
    {
      Step guard(ctx_.control, step, StepScope::this_rank);  // node leaders only
      benchmark::RunSpecifiedBenchmarks(&reporter_);
    }
    benchmark::ClearRegisteredBenchmarks();
    meta_.clear();
  }

  // Verification of the pending records: wrong < 0 means the kernel has no output to check.
  void mark(int64_t wrong, const std::string& unit) {
    if (wrong < 0) return;
    for (auto& r : pending_) {
      r.check = wrong == 0 ? "ok" : "wrong";
      r.wrong = wrong;
      if (wrong) {
        r.status = report::Status::failed;
        r.reason = std::to_string(wrong) + " wrong " + unit + " after the benchmark";
      }
    }
  }

  void flush() {
    for (const auto& r : pending_) ctx_.emit(r);
    pending_.clear();
  }

  const SuiteContext& ctx_;
  StepProgress steps_;  // rank 0 shows it
  std::map<std::string, BenchMeta> meta_;
  std::vector<report::Record> pending_;
  node::RecordReporter reporter_;
};

void run_node_on_leader(const SuiteContext& ctx) {
  NodeBench bench(ctx);
  std::string step = "node membw";
  try {
    const auto numa_nodes = node::memory_nodes();
    bench.plan_memory(numa_nodes);
    for (int numa : numa_nodes) bench.memory(numa);
    const auto probe = gpu::probe_gpus();
    if (!probe.ok()) {
      ctx.emit(skipped(ctx, "node", "pcie", probe.reason));
      return;
    }
    bench.plan_pcie(probe.count);
    for (int d = 0; d < probe.count; ++d) {
      step = "node pcie gpu" + std::to_string(d);
      bench.pcie(gpu::gpu_info(d));
    }
  } catch (const std::exception& e) {
    ctx.emit(failed_in(ctx, "node", "micro-benchmarks", step, e.what()));
  }
}

void run_node_suite(const SuiteContext& ctx) { on_node_leaders(ctx, [&] { run_node_on_leader(ctx); }); }

void add_node_options(CLI::App& app, Config& c, OptionText&) {
  const std::string g = "node suite";
  add_size_option(app, "--node-size", c.node_bytes, "Bytes per array of the host memory bandwidth benchmarks")
      ->default_str("128M")
      ->group(g);
  add_float_option(app, "--node-min-time", c.node_min_time_s, 0.001, 3600.0,
                   "Minimum time per repetition (one sample) of a node benchmark, seconds")
      ->group(g);
  app.add_option("--node-repetitions", c.node_repetitions, "Repetitions per node benchmark (the samples of each figure)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str()
      ->group(g);
}

report::RecordKind node_record_kind(const report::Record& r) {
  if (r.name.rfind("pcie_", 0) == 0) return report::RecordKind::pcie_copy;
  if (r.name.rfind("membw_", 0) == 0) return report::RecordKind::host_memory;
  return report::RecordKind::other;
}

}  // namespace

Suite node_suite() {
  Suite s;
  s.name = "node";
  s.help = "node-local micro-benchmarks (Google Benchmark): host memory bandwidth per NUMA node, PCIe copies";
  // Its records and figures are named at run time (membw_copy as node.membw.copy, pcie_h2d, ...).
  s.spec_tests = {{"", "*", {}, {}, "", true, {{"*", "algbw_GBps"}}}};
  s.record_kind = node_record_kind;
  s.add_options = add_node_options;
  s.run = run_node_suite;
  s.console = copy_console_line;
  return s;
}

}  // namespace gpunet::bench
