#include "bench/options.hpp"

#include <algorithm>
#include <sstream>

#include <CLI/CLI.hpp>

#include "bench/cli_size.hpp"
#include "bench/sizes.hpp"
#include "bench/tcp/options.hpp"  // tcp suite (issue #4)
#include "common/strings.hpp"
#include "gpunet/build_config.h"
#include "report/busbw.hpp"

namespace gpunet::bench {

std::string to_string(Reduction r) {
  switch (r) {
    case Reduction::max: return "max";
    case Reduction::mean: return "mean";
    case Reduction::min: return "min";
  }
  return "max";
}

const std::vector<std::string>& known_suites() {
  static const std::vector<std::string> names{"topo", "mpi", "tcp", "rdma", "nccl", "pcie", "node"};
  return names;
}

namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// --- gpu, node and counters options (issue #8) ---
struct GpuOptionText {
  std::string nccl_colls = "allreduce";
  std::string expect_ifaces;
};

void add_gpu_options(CLI::App& app, Config& c, GpuOptionText& t) {
  app.add_option("--nccl-collectives", t.nccl_colls,
                 "Collectives for the nccl suite: allreduce,allgather,reduce_scatter,broadcast,reduce,alltoall,sendrecv")
      ->type_name("LIST")
      ->capture_default_str();
  app.add_flag("--nccl-topo-dump", c.nccl_topo_dump, "Have NCCL write its topology XML per node into the output directory");
  app.add_flag("--scaling", c.scaling,
               "After the mpi and nccl sweeps, all_reduce on 1, 2, 4, ... whole nodes; names the node that makes busbw drop");
  add_size_option(app, "--scaling-size", c.scaling_bytes, "all_reduce size of the scaling sweep")->default_str("the -e size");
  add_size_option(app, "--pcie-size", c.pcie_bytes, "Bytes per host<->device copy (pcie and node suites)")->default_str("256M");
  add_size_option(app, "--node-size", c.node_bytes, "Bytes per array of the host memory bandwidth benchmarks")->default_str("128M");
  app.add_option("--node-min-time", c.node_min_time_s, "Google Benchmark minimum time per repetition, seconds")
      ->check(CLI::Range(0.001, 3600.0))
      ->capture_default_str();
  app.add_option("--node-repetitions", c.node_repetitions, "Repetitions per node benchmark (the samples of each figure)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--counters-interval", c.counters_interval_s,
                 "Seconds between readings of interface, RDMA and NVML counters during each suite; 0 turns them off")
      ->check(CLI::Range(0.0, 60.0))
      ->capture_default_str();
  app.add_option("--expect-if", t.expect_ifaces,
                 "Interfaces benchmark traffic should take (names, or prefixes ending in *); traffic elsewhere is flagged")
      ->type_name("LIST");
}

std::optional<std::string> finish_gpu_options(Config& c, const GpuOptionText& t) {
  c.nccl_collectives = split_list(t.nccl_colls);
  if (c.nccl_collectives.empty()) return "--nccl-collectives: empty list";
  for (const auto& n : c.nccl_collectives)
    if (!report::collective_from_string(n))
      return "--nccl-collectives: unknown collective '" + n +
             "' (known: allreduce,allgather,reduce_scatter,broadcast,reduce,alltoall,sendrecv)";
  c.expect_ifaces = split_list(t.expect_ifaces);
  return std::nullopt;
}
// --- end of issue #8 block ---

void build_app(CLI::App& app, Config& c, std::string& suites, std::string& colls, std::string& reduction) {
  app.set_version_flag("--version", std::string("gpunet-bench ") + GPUNET_VERSION + " (" + GPUNET_GIT_COMMIT + ")");
  app.get_formatter()->column_width(34);
  app.footer(
      "Sizes take binary suffixes: K=2^10, M=2^20, G=2^30. Units in output: GB/s = 1e9 B/s, Gb/s = 1e9 bit/s, us.\n"
      "Exit codes: 0 all good; 1 wrong result or failed verdict; 2 usage or input error;\n"
      "3 runtime failure (dead rank, timeout, MPI error); 4 a promise of --spec could not be judged.");

  app.add_option("--suites", suites, "Comma list of suites to run, in order: " + join(known_suites(), ","))
      ->type_name("LIST")
      ->default_str(join(known_suites(), ","));
  app.add_option("--collectives", colls,
                 "Collectives for the mpi suite: allreduce,allgather,reduce_scatter,broadcast,alltoall")
      ->type_name("LIST")
      ->default_str("allreduce,allgather,reduce_scatter,broadcast,alltoall");

  add_size_option(app, "-b,--minbytes", c.min_bytes, "Smallest message size")->default_str("1K");
  add_size_option(app, "-e,--maxbytes", c.max_bytes, "Largest message size")->default_str("64M");
  app.add_option("-f,--stepfactor", c.step_factor, "Multiply the size by this factor between sizes")
      ->check(CLI::Range(1.000001, 1e6))
      ->capture_default_str();
  add_size_option(app, "-i,--stepbytes", c.step_bytes, "Add this many bytes between sizes instead of -f");
  app.add_option("-n,--iters", c.iters, "Minimum timed iterations per size (more if the budget allows)")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  app.add_option("-w,--warmup_iters", c.warmup_iters, "Untimed warm-up iterations per size")
      ->check(CLI::Range(0, 100000000))
      ->capture_default_str();
  app.add_option("-c,--check", c.check, "Verify results (1) or not (0)")
      ->check(CLI::Range(0, 1))
      ->capture_default_str();
  app.add_option("-d,--datatype", c.dtype, "Element type: float, double, int32, int64")
      ->check(CLI::IsMember({"float", "double", "int32", "int64"}))
      ->capture_default_str();
  app.add_option("--op", c.op, "Reduction operation: sum, max, min")
      ->check(CLI::IsMember({"sum", "max", "min"}))
      ->capture_default_str();
  app.add_option("--budget", c.budget_s,
                 "Time budget per size in seconds; iterations grow from -n up to this budget")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  app.add_option("--max-iters", c.max_iters, "Upper bound on timed iterations per size")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  app.add_option("--reduce", reduction,
                 "How per-iteration times combine across ranks: max (default; a collective ends when "
                 "its slowest rank ends), mean or min")
      ->check(CLI::IsMember({"max", "mean", "min"}))
      ->default_str("max");
  app.add_option("--timeout", c.timeout_s,
                 "Seconds any single step may take before the whole job is ended (exit code 3)")
      ->check(CLI::Range(0.1, 1e6))
      ->capture_default_str();
  // --- rdma suite options ----------------------------------------------------------------------
  app.add_option("--rdma-dev", c.rdma_dev, "RDMA device (and port) for the rdma suite, e.g. mlx5_0 or mlx5_0:1; "
                 "default: the first ACTIVE port")->type_name("DEV[:PORT]");
  app.add_option("--gid-index", c.gid_index, "RoCE GID index on every rank (default: chosen per rank, "
                 "IPv4-mapped global RoCE v2 first)")->check(CLI::Range(0, 65535));
  app.add_flag("--rdma-ipv6", c.rdma_ipv6, "Prefer IPv6 GIDs to IPv4-mapped ones");
  app.add_option("--rdma-mode", c.rdma_mode, "pair: the first two ranks (on different nodes when there are), "
                 "full sweep; matrix: every pair of ranks in N-1 rounds at --rdma-size")
      ->check(CLI::IsMember({"pair", "matrix"}))->capture_default_str();
  app.add_flag("--rdma-bidir", c.rdma_bidir, "Also measure both directions at once");
  add_size_option(app, "--rdma-size", c.rdma_size, "The one large RDMA message size (headline figure, matrix cells)")
      ->default_str("1M");
  app.add_option("--rdma-tx-depth", c.rdma_tx_depth, "RDMA WRITEs in flight per queue pair")
      ->check(CLI::Range(1, 8192))->capture_default_str();
  app.add_option("--rdma-mem", c.rdma_mem, "Memory the rdma suite registers: host (on the NIC's NUMA node), "
                 "cuda (GPUDirect RDMA), auto (host, plus cuda when built with CUDA)")
      ->check(CLI::IsMember({"host", "cuda", "auto"}))->capture_default_str();
  // --- end rdma suite options ------------------------------------------------------------------
  app.add_option("-o,--output", c.output_dir, "Directory for results.jsonl and the reports")
      ->capture_default_str();
  app.add_flag("-q,--quiet", c.quiet, "Print only the final summary and errors");
  app.add_option("--topology-xml", c.topology_xml,
                 "Analyse an hwloc XML export or an NCCL topology file instead of this machine: print the "
                 "path matrix and the findings, then exit (no MPI needed)")
      ->type_name("FILE");
  // --- acceptance and regression (issue #7) ---
  app.add_option("--spec", c.spec_path,
                 "Acceptance spec (JSON, see ci/SPEC.md): adds a PASS/FAIL/SKIP verdict table; a FAIL exits 1")
      ->type_name("FILE");
  app.add_option("--baseline", c.baseline_path,
                 "Compare every figure with this stored baseline (SAME/FASTER/SLOWER/UNCERTAIN); SLOWER exits 1")
      ->type_name("FILE");
  app.add_option("--save-baseline", c.save_baseline_path, "Store this run's figures as a baseline in FILE")
      ->type_name("FILE");

  auto* rep = app.add_subcommand("report", "Re-render every output from a report.json or results.jsonl, without MPI");
  rep->add_option("path", c.report_input, "report.json or results.jsonl")->required();
  rep->add_option("-o,--output", c.output_dir, "Directory for the rendered outputs (default: the input's directory)");
  rep->add_option("--spec", c.spec_path, "Judge the stored run against this acceptance spec (same exit codes as a run)")
      ->type_name("FILE");
  rep->add_option("--baseline", c.baseline_path, "Compare the stored run with this baseline")->type_name("FILE");
  rep->add_option("--save-baseline", c.save_baseline_path, "Store the stored run's figures as a baseline in FILE")
      ->type_name("FILE");
}

}  // namespace

ParseResult parse_options(const std::vector<std::string>& args) {
  Config c;
  c.argv = args;
  std::string suites = join(known_suites(), ",");
  std::string colls = "allreduce,allgather,reduce_scatter,broadcast,alltoall";
  std::string reduction = "max";
  CLI::App app{"gpunet-bench: GPU cluster network and PCIe benchmark. Run as: mpirun -np N gpunet-bench [options]",
               "gpunet-bench"};
  build_app(app, c, suites, colls, reduction);
  tcp::OptionText tcp_text;                 // --- tcp suite (issue #4) ---
  tcp::add_options(app, c, tcp_text);       // --- end tcp suite ---
  GpuOptionText gpu_text;                // issue #8
  add_gpu_options(app, c, gpu_text);     // issue #8

  std::vector<std::string> rev(args.rbegin(), args.rend() - (args.empty() ? 0 : 1));
  try {
    app.parse(rev);
  } catch (const CLI::CallForHelp&) {
    return {std::nullopt, 0, app.help()};
  } catch (const CLI::CallForAllHelp&) {
    return {std::nullopt, 0, app.help("", CLI::AppFormatMode::All)};
  } catch (const CLI::CallForVersion&) {
    return {std::nullopt, 0, app.version()};
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    return {std::nullopt, 2, "gpunet-bench: error: " + msg + " (see gpunet-bench --help)"};
  }

  auto fail = [](const std::string& m) { return ParseResult{std::nullopt, 2, "gpunet-bench: error: " + m + " (see gpunet-bench --help)"}; };
  if (!c.report_input.empty() && app.get_subcommand("report")->count("-o") == 0) {
    const auto slash = c.report_input.find_last_of('/');
    c.output_dir = slash == std::string::npos ? "." : c.report_input.substr(0, slash);
  }
  c.suites = split_list(suites);
  if (c.suites.empty()) return fail("--suites: empty list");
  for (const auto& s : c.suites)
    if (std::find(known_suites().begin(), known_suites().end(), s) == known_suites().end())
      return fail("--suites: unknown suite '" + s + "' (known: " + join(known_suites(), ",") + ")");
  c.collectives = split_list(colls);
  if (c.collectives.empty()) return fail("--collectives: empty list");
  for (const auto& n : c.collectives)
    if (!report::collective_from_string(n) || n == "reduce" || n == "sendrecv")
      return fail("--collectives: unknown collective '" + n + "' (known: allreduce,allgather,reduce_scatter,broadcast,alltoall)");
  if (c.max_bytes < c.min_bytes)
    return fail("-e/--maxbytes (" + std::to_string(c.max_bytes) + ") is smaller than -b/--minbytes (" + std::to_string(c.min_bytes) + ")");
  // --- rdma suite checks ---
  if (c.rdma_size > (1LL << 30)) return fail("--rdma-size: RDMA messages are at most 1G here");
  // --- end rdma suite checks ---
  c.reduction = reduction == "mean" ? Reduction::mean : reduction == "min" ? Reduction::min : Reduction::max;
  if (c.output_dir.empty()) return fail("-o/--output: empty directory name");
  // --- tcp suite (issue #4) ---
  if (const auto why = tcp::finish_options(c, tcp_text, app); !why.empty()) return fail(why);
  // --- end tcp suite ---
  if (const auto err = finish_gpu_options(c, gpu_text)) return fail(*err);  // issue #8
  return {std::move(c), 0, ""};
}

}  // namespace gpunet::bench
