// The training-impact model: an alpha-beta (latency-bandwidth) model of ring all-reduce fitted to
// measured curves, and what it means for one data-parallel training step. Pure functions; every
// formula and its source is in the comment beside it and in report/training/TRAINING.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpunet::report::training {

// Ring all-reduce of S bytes over n ranks (NCCL's algorithm for large messages; Patarasuk & Yuan,
// "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 2009; Thakur,
// Rabenseifner & Gropp, "Optimization of collective communication operations in MPICH", IJHPCA 2005):
// 2(n-1) steps, each one message of S/n bytes to the next rank:
//   T(n, S) = 2(n-1)·alpha + 2(n-1)/n · S · beta
// alpha: seconds per step (latency), beta: seconds per byte (1 / bandwidth).
struct AlphaBeta {
  double alpha_s = 0;
  double beta_s_per_byte = 0;
};
double ring_allreduce_s(const AlphaBeta& m, int n, double bytes);
// 1/beta in GB/s; 0 for a model without a bandwidth (beta 0).
inline double bandwidth_GBps(const AlphaBeta& m) { return m.beta_s_per_byte > 0 ? 1e-9 / m.beta_s_per_byte : 0.0; }
// Bytes each rank sends (and receives) in one ring all-reduce: 2(n-1)/n · S (nccl-tests
// doc/PERFORMANCE.md: the all-reduce bus factor).
double ring_bytes_per_rank(int n, double bytes);
// The ring's steps and the bytes of one step: 2(n-1) steps of S/n bytes, each rank sending to its
// right neighbour and receiving from its left one, so every link carries one step in each direction.
int ring_steps(int n);
double ring_step_bytes(int n, double bytes);
// With 2 ranks the left and the right neighbour are the same rank: both directions of every step run
// between one pair, on one connection in Open MPI's TCP BTL (btl_tcp_links 2 does not reliably give a
// second one: ob1 sends on one module). Measured on the fake cluster (report/training/TRAINING.md section 1),
// that pair reaches ~0.6x the per-direction bandwidth of 3 and more ranks, whose links each carry one
// direction; 2 nodes with 2 ranks each (a ring of 4) have one-way links too and fit those.
bool ring_neighbours_coincide(int n);

// One measured all-reduce: communicator size, message size, time.
struct TimedPoint {
  int n = 0;
  double bytes = 0;
  double seconds = 0;
};

struct Residual {
  int n = 0;
  double bytes = 0;
  double measured_s = 0;
  double predicted_s = 0;
  double relative = 0;  // (predicted - measured) / measured
};

struct FitQuality {
  double r2 = 0;                   // 1 - SS_res / SS_tot on the times (unweighted)
  double max_abs_relative = 0;     // max |relative residual|
  double median_abs_relative = 0;  // median |relative residual|
};

struct RegimeFit {
  std::string regime;  // "all sizes", "small messages", "large messages"
  double min_bytes = 0, max_bytes = 0;
  AlphaBeta model;
  std::vector<Residual> residuals;  // one per point, ascending bytes
  FitQuality quality;
};

// Least squares in relative terms (weights 1/T_i^2, so a 1 KiB and a 64 MiB point count alike):
//   minimise sum_i ((T_i - 2(n_i-1)·alpha - 2(n_i-1)/n_i·S_i·beta) / T_i)^2,  alpha >= 0, beta >= 0.
// The 2x2 normal equations are solved in closed form; when the unconstrained optimum has a negative
// parameter, that parameter is set to 0 and the other refitted alone. Points with n < 2 or T <= 0 are
// ignored. nullopt when fewer than 2 usable points remain or the points cannot separate alpha from
// beta (all at one size and one n).
std::optional<RegimeFit> fit_ring(const std::vector<TimedPoint>& points, const std::string& regime = "all sizes");

// Fits one curve per size regime. MPI libraries switch algorithms by message size (Open MPI's tuned
// component: recursive doubling for small messages, ring / segmented ring for large ones), so every
// split between consecutive sizes that leaves at least kMinRegimePoints sizes on each side is tried,
// and the best split is kept when it at least halves the sum of squared relative residuals of one fit
// over all sizes; otherwise one regime, "all sizes". Ascending bytes; the last regime is the large one.
inline constexpr size_t kMinRegimePoints = 3;
std::vector<RegimeFit> fit_regimes(std::vector<TimedPoint> points);

// Fallback without an all-reduce curve: a TCP pair's one-way latency (half the ping-pong round trip)
// and goodput: alpha = RTT/2, beta = 1 / goodput (bytes per second).
AlphaBeta from_pair(double half_rtt_s, double goodput_bytes_per_s);

// --- one data-parallel training step -----------------------------------------------------------

// PyTorch DistributedDataParallel's default gradient bucket: bucket_cap_mb = 25 (MiB)
// (torch.nn.parallel.DistributedDataParallel documentation).
inline constexpr int64_t kDdpBucketBytes = 25LL << 20;
// bf16 gradients: 2 bytes per parameter.
inline constexpr double kBf16Bytes = 2;
// Fraction of the compute phase that communication can hide behind, fixed before any measurement:
// DDP starts each bucket's all-reduce during the backward pass, and the backward pass is 2/3 of a
// step's compute (training costs ~6 FLOPs per parameter per token, 2 forward and 4 backward: Kaplan et
// al., "Scaling Laws for Neural Language Models", 2020, section 2.1).
inline constexpr double kOverlappableFraction = 2.0 / 3.0;

// Gradient all-reduce of G bytes in buckets of B bytes over n nodes, one rank per node (the gradients
// of the GPUs inside a node are assumed reduced inside it first): floor(G/B) buckets of B and one of
// G mod B, each a ring all-reduce:
//   comm(n) = sum_buckets T(n, S_bucket) = k·2(n-1)·alpha + 2(n-1)/n·G·beta,  k = ceil(G/B)
double bucketed_allreduce_s(const AlphaBeta& m, int n, double grad_bytes, double bucket_bytes);
int64_t bucket_count(double grad_bytes, double bucket_bytes);

struct StepEstimate {
  int nodes = 0;
  double bytes_per_node = 0;   // 2(n-1)/n · G, sent by each node per step
  double comm_s = 0;
  double no_overlap_s = 0;     // compute + comm
  double perfect_overlap_s = 0;  // max(compute, comm)
  double model_s = 0;          // compute + max(0, comm - f·compute)
  double wait_no_overlap = 0;  // (step - compute) / step, for each step time
  double wait_perfect = 0;
  double wait_model = 0;
  double scaling_efficiency = 0;  // compute / model step: per-node throughput against one node alone
};
StepEstimate estimate_step(const AlphaBeta& m, int nodes, double grad_bytes, double bucket_bytes, double compute_s,
                           double overlappable = kOverlappableFraction);

// --- sharded data parallelism (reduce-scatter + all-gather) ------------------------------------

// Ring reduce-scatter and ring all-gather of S bytes over n ranks (the two halves of the ring
// all-reduce, same sources): (n-1) steps of S/n bytes each,
//   T_rs(n, S) = T_ag(n, S) = (n-1)·alpha + (n-1)/n · S · beta
double ring_half_s(const AlphaBeta& m, int n, double bytes);
// How the model's state is spread over the data-parallel ranks.
//  none: DDP, every rank holds all parameters; gradients all-reduced (2(n-1)/n·G per rank).
//  full: ZeRO stage 3 / PyTorch FSDP FULL_SHARD: each rank holds 1/n of the parameters; the forward
//        pass all-gathers them, the backward pass all-gathers them again and reduce-scatters the
//        gradients: 3(n-1)/n·G per rank, 1.5x DDP (Rajbhandari et al., "ZeRO: Memory Optimizations
//        Toward Training Trillion Parameter Models", SC20, section 7.2; Zhao et al., "PyTorch FSDP",
//        VLDB 2023). Parameters are assumed in the gradients' precision (bf16 both).
// (ZeRO stages 1-2, sharded optimizer state and gradients, reduce-scatter the gradients and
// all-gather the updated parameters: 2(n-1)/n·G, the all-reduce's volume; "none" models them.)
enum class Sharding { none, full };
struct ShardedComm {
  double forward_s = 0;   // all-gather of the parameters before the forward pass
  double backward_s = 0;  // all-gather again + reduce-scatter of the gradients, during the backward
  double total_s() const { return forward_s + backward_s; }
};
// In buckets of B bytes, each collective per bucket: forward = sum T_ag, backward = sum (T_ag + T_rs).
ShardedComm fully_sharded_comm(const AlphaBeta& m, int n, double grad_bytes, double bucket_bytes);
// The fixed overlap model for full sharding: the forward all-gather hides behind the forward pass
// ((1-f)·compute), the backward collectives behind the backward pass (f·compute):
//   step = compute + max(0, fwd - (1-f)·compute) + max(0, bwd - f·compute)
// bytes_per_node = 3(n-1)/n·G; no_overlap = compute + comm; perfect = max(compute, comm).
StepEstimate estimate_sharded_step(const AlphaBeta& m, int nodes, double grad_bytes, double bucket_bytes,
                                   double compute_s, double overlappable = kOverlappableFraction);
// estimate_step or estimate_sharded_step.
StepEstimate estimate(Sharding s, const AlphaBeta& m, int nodes, double grad_bytes, double bucket_bytes,
                      double compute_s);
// Communication per step under a sharding.
double step_comm_s(Sharding s, const AlphaBeta& m, int nodes, double grad_bytes, double bucket_bytes);
// The smallest node count in [2, max_nodes] at which communication per step exceeds compute.
std::optional<int> nodes_where_comm_exceeds_compute(const AlphaBeta& m, double grad_bytes, double bucket_bytes,
                                                    double compute_s, int max_nodes = 4096,
                                                    Sharding sharding = Sharding::none);

// --- other link speeds (estimates) -------------------------------------------------------------

// The Ethernet speeds projected to.
inline constexpr double kLinkSpeedsGbps[] = {10, 25, 100, 200, 400};
// Typical efficiency against the ceiling, which caps this run's own: 0.92, the low end of the 92-97 %
// of line rate that public NIC and NCCL per-NIC figures reach (report/CEILINGS.md section 8: 46-48
// GB/s per 400G NIC, 24 GB/s per 200G NIC). A shaped fake link reaches ~100 % and flatters projections.
inline constexpr double kTypicalEfficiency = 0.92;
// The TCP/IPv4 goodput ceiling of an Ethernet link at MTU 1500 with timestamps, R·1448/1538
// (report/CEILINGS.md §1.3), in bytes per second.
double ethernet_ceiling_Bps(double rate_Gbps);
// The model on another link: alpha kept (latency is not a bandwidth), beta = 1 / (efficiency·ceiling).
AlphaBeta at_link_speed(const AlphaBeta& measured, double efficiency, double rate_Gbps);

// Time to move `bytes` once over a path: alpha + S·beta.
double transfer_s(const AlphaBeta& m, double bytes);

}  // namespace gpunet::report::training
