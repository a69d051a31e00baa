// The immutable run configuration. Built once from the command line by parse_options() and
// passed by const reference everywhere; nothing changes it after start-up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpunet::bench {

enum class Reduction { max, mean, min };  // how per-iteration times combine across ranks

struct Config {
  std::vector<std::string> argv;

  // What to run.
  std::vector<std::string> suites;   // in run order
  std::vector<std::string> collectives;  // mpi/nccl collectives to sweep

  // nccl-tests compatible sweep flags.
  int64_t min_bytes = 1024;
  int64_t max_bytes = 64LL << 20;
  double step_factor = 4.0;
  int64_t step_bytes = 0;   // -i: additive step; 0 = use step_factor
  int iters = 10;           // minimum timed iterations per size
  int warmup_iters = 2;
  int check = 1;            // verify data (0 = off)
  std::string dtype = "float";
  std::string op = "sum";

  // Runner.
  double budget_s = 0.1;    // per-size time budget for the adaptive iteration count
  int max_iters = 10000;
  Reduction reduction = Reduction::max;
  double timeout_s = 120;   // bound on any single step (watchdog)

  // Output.
  std::string output_dir = "gpunet-report";
  bool quiet = false;

  // --- gpu, node and counters suites (issue #8) ---
  std::vector<std::string> nccl_collectives{"allreduce"};  // --nccl-collectives
  bool nccl_topo_dump = false;           // --nccl-topo-dump: NCCL_TOPO_DUMP_FILE per node
  bool scaling = false;                  // --scaling: all_reduce on 1, 2, 4, ... whole nodes (mpi, nccl)
  int64_t scaling_bytes = 0;             // --scaling-size; 0 = -e
  int64_t pcie_bytes = 256LL << 20;      // --pcie-size: bytes per host<->device copy
  int64_t node_bytes = 128LL << 20;      // --node-size: bytes per array of the memory benchmarks
  double node_min_time_s = 0.1;          // --node-min-time: Google Benchmark's minimum time per repetition
  int node_repetitions = 3;              // --node-repetitions: repetitions = samples per figure
  double counters_interval_s = 0.1;      // --counters-interval: seconds between counter readings; 0 = off
  std::vector<std::string> expect_ifaces;  // --expect-if: interfaces benchmark traffic should take
  // --- end of issue #8 block ---

  // Subcommands / modes.
  std::string report_input;      // `gpunet-bench report PATH`: re-render offline
};

std::string to_string(Reduction r);

}  // namespace gpunet::bench
