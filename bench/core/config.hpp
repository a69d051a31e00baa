// The immutable run configuration. Built once from the command line by parse_options() and
// passed by const reference everywhere; nothing changes it after start-up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report/judge/figure_select.hpp"
#include "report/history/history_request.hpp"
#include "report/training/training_params.hpp"

namespace gpunet::bench {

enum class Reduction { max, mean, min };  // how per-iteration times combine across ranks

// --- tcp suite ---
struct TcpConfig {
  std::string iface;          // --tcp-if: interface name or CIDR ("" = loopback on one node, else the
                              // first non-loopback IPv4 address that is up), or a list of them, or "rails"
  std::vector<std::string> ifaces;  // --tcp-if as a list, one entry per rail (set after the parse; empty:
                                    // the default address); {"rails"}: every data interface
  bool rails_one_at_a_time = false; // --rails one-at-a-time: each rail's matrix alone (default: at once)
  std::vector<std::string> tests{"neighbours", "matrix", "one-to-many", "many-to-one", "latency"};
  int streams = 1;            // parallel streams (neighbours run 1 and, when > 1, this many)
  double time_s = 2.0;        // seconds per bandwidth measurement
  int64_t bytes = 0;          // bytes per flow instead of a time (0 = use time_s)
  int64_t msg_bytes = 128 << 10;
  int64_t sndbuf = 0;         // SO_SNDBUF; 0 = kernel autotuning
  int64_t rcvbuf = 0;         // SO_RCVBUF; 0 = kernel autotuning
  bool bidir = false;         // neighbour pairs in both directions at once
  bool matrix_one_way = false;  // --tcp-matrix-direction one-way: the matrix's directions one after the other
  double interval_s = 0.1;    // timeline interval
  bool latency_every_pair = false;  // set after the parse: --spec promises tcp latency for every pair
  int64_t lat_bytes = 14;     // ping-pong message size
  double lat_time_s = 1.0;    // seconds of ping-pong per pair
  double timeout_s = 5.0;     // connect and silence timeout of every socket
  double suspect = 0.8;       // a pair below this fraction of the best pair or of its ceiling is a suspect
  std::string pairs = "all";  // --tcp-pairs: the matrix's pairs: all, ring or random (pairs_k partners each)
  int pairs_k = 0;            // --tcp-pairs random:K: partners per node
  uint64_t pairs_seed = 0;    // --tcp-pairs-seed (rank 0's is used; drawn at start-up when not given)
  int retest_rounds = 4;      // --tcp-retest-rounds: at most this many rounds of re-tests per rail
  double dip = 0.8;           // a timeline interval below this fraction of the flow's median is a dip
  double link_rate_bps = 0;   // --link-rate: the link's rate when the NIC can't tell (0 = ask the NIC)
  double duration_s = 0;      // --duration: stability mode, each chosen test runs this long
  std::string live = "auto";  // --tcp-live: interval lines on the console: auto (with --duration), on, off
  double live_interval_s = 1; // --tcp-live-interval: seconds per interval line
  bool live_lines = false;    // what --tcp-live comes to (set after the parse)
};
// --- end tcp suite ---

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
  std::string control_if;   // --control-if: the watchdog's channel ("" = MPI's wire-up interface, else loopback on one node)

  // --- rdma suite (bench/suites/rdma) -----------------------------------------------------------------
  std::string rdma_dev;            // --rdma-dev DEV[:PORT], a list of them, or "all"; "" = the first ACTIVE port
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
  std::string progress = "auto";   // --progress: auto, line, plain, off (bench/core/console_writer.hpp)

  TcpConfig tcp;  // --- tcp suite ---
  // Acceptance and regression: empty = not asked for.
  report::KnownTests spec_names;   // what --spec may name: every suite's tests (bench::spec_names)
  std::string spec_path;           // --spec FILE: judge the run against an acceptance spec
  std::string baseline_path;       // --baseline FILE: compare with a stored baseline
  std::string save_baseline_path;  // --save-baseline FILE: store this run as a baseline
  std::string learn_baseline_path;  // --learn-baseline FILE: --baseline with this run's SAME figures in its history
  // --- gpu, node and counters suites ---
  std::vector<std::string> nccl_collectives{"allreduce"};  // --nccl-collectives
  bool nccl_topo_dump = false;           // --nccl-topo-dump: NCCL_TOPO_DUMP_FILE per node
  int cuda_graph_launches = 0;           // -G/--cudagraph: launches of each batch captured as a CUDA graph; 0 = direct
  bool scaling = false;                  // --scaling: all_reduce on 1, 2, 4, ... whole nodes (mpi, nccl)
  int64_t scaling_bytes = 0;             // --scaling-size; 0 = -e
  int64_t pcie_bytes = 256LL << 20;      // --pcie-size: bytes per host<->device copy
  int64_t node_bytes = 128LL << 20;      // --node-size: bytes per array of the memory benchmarks
  double node_min_time_s = 0.1;          // --node-min-time: Google Benchmark's minimum time per repetition
  int node_repetitions = 3;              // --node-repetitions: repetitions = samples per figure
  double counters_interval_s = 0.1;      // --counters-interval: seconds between counter readings; 0 = off
  double host_busy_pct = 30;             // --host-busy-pct: other work above this share of the CPUs = busy
  std::vector<std::string> expect_ifaces;  // --expect-if: interfaces benchmark traffic should take
  // --- end of gpu, node and counters suites ---

  report::training::TrainingParams training;  // --model-params, --step-compute-s, ... (bench/core/training_options.hpp)

  // Subcommands / modes.
  std::string report_input;      // `gpunet-bench report PATH`: re-render offline
  std::string history_path;      // --history FILE.sqlite: append the analysed run (report/history/)
  report::history::HistoryRequest history;  // `gpunet-bench history ...`
  std::string fabric_path;       // --fabric FILE: Slurm topology.conf of the fabric (report/analysis/fabric_view.hpp)
  std::string topology_xml;      // --topology-xml FILE: analyse a topology file, no MPI (topo)
  bool check_inputs = false;     // --check: check the options and input files, measure nothing, no MPI
  int plan_nodes = 1;            // --nodes: with --check, the node count its plan is for
  double time_budget_s = 0;      // --time-budget: the plan is made to fit this (bench/core/time_budget.hpp); 0 = none

  // The evidence bundle (bench/core/evidence_options.hpp).
  bool evidence = false;         // --evidence: OUTDIR/evidence.tar.gz after the outputs
  std::string sign_key;          // --sign-key KEY: sign its manifest (ssh-keygen -Y sign)
  std::string verify_input;      // `gpunet-bench verify FILE`
  std::string allowed_signers;   // verify --allowed-signers FILE
  std::string signer_identity;   // verify --identity ID
};

std::string to_string(Reduction r);

}  // namespace gpunet::bench
