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

  // --- rdma suite (bench/rdma) -----------------------------------------------------------------
  std::string rdma_dev;            // --rdma-dev DEV[:PORT]; "" = the first ACTIVE port
  int gid_index = -1;              // --gid-index; -1 = choose (IPv4-mapped, global, RoCE v2 first)
  bool rdma_ipv6 = false;          // --rdma-ipv6: prefer IPv6 GIDs
  std::string rdma_mode = "pair";  // --rdma-mode: pair (first two ranks, full sweep) or matrix (all pairs)
  bool rdma_bidir = false;         // --rdma-bidir: also both directions at once
  int64_t rdma_size = 1 << 20;     // --rdma-size: the one large size (headline, matrix cells)
  int rdma_tx_depth = 128;         // --rdma-tx-depth: WRITEs in flight
  std::string rdma_mem = "auto";   // --rdma-mem: host, cuda (GPUDirect RDMA) or auto (both when built with CUDA)
  // --- end rdma suite ---------------------------------------------------------------------------

  // Output.
  std::string output_dir = "gpunet-report";
  bool quiet = false;

  // Subcommands / modes.
  std::string report_input;      // `gpunet-bench report PATH`: re-render offline
};

std::string to_string(Reduction r);

}  // namespace gpunet::bench
