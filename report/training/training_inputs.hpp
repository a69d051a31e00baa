// What the training-impact model reads from a run: the all-reduce curves (time against size) per
// path and node count, and the TCP pair figures for the fallback and the latency check. The one place
// that knows which records carry them (switch it to figures by metric here, and nowhere else).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/model/record.hpp"
#include "report/training/training_model.hpp"

namespace gpunet::report::training {

struct Curve {
  std::string suite;   // "nccl", "mpi"
  std::string source;  // "nccl allreduce", "mpi allreduce", "mpi allreduce scaling sweep"
  std::string path;    // "within a node" or "between nodes"
  int nodes = 0;       // nodes spanned (the largest, for a scaling sweep)
  int ranks = 0;       // ranks of the largest point
  std::vector<TimedPoint> points;
  std::optional<double> efficiency;    // busbw / ceiling at the largest size, from the analysis
};

struct PairFigures {
  std::string pairs;          // "3 pairs" or "a -> b"
  std::vector<std::string> interfaces;  // the data network the tcp suite measured (extra.link.iface)
  double half_rtt_s = 0;      // median over pairs of the p50 one-way latency (half the round trip)
  double goodput_Bps = 0;     // median over pairs of the goodput
  std::optional<double> efficiency;  // median goodput efficiency against its ceiling
};

struct LatencyPair {
  std::string pair;  // "a -> b"
  double p99_rtt_us = 0;
};

// The interfaces a suite's traffic crossed and the nodes it spanned, from the counters records (one
// per node leader and suite: name = the suite, extra.traffic.carried_by).
struct Crossed {
  std::vector<std::string> interfaces;  // sorted, unique; empty when the counters saw none (loopback)
  int hosts = 0;
};

// A training step the train suite measured (name step): against the fixed overlap model fed with the
// compute and communication it measured apart.
struct MeasuredStep {
  std::string variant;  // "cpu emulated", "gpu overlapped", ...
  int nodes = 0;
  double measured_s = 0, model_s = 0;
  bool within_bounds = false;  // between the perfect-overlap and no-overlap steps
};

struct TrainingInputs {
  std::vector<Curve> curves;        // NCCL first, then MPI sweeps, then scaling sweeps
  std::map<std::string, Crossed> crossed;  // by suite
  std::optional<PairFigures> pair;  // when the run has both TCP goodput and latency
  std::vector<LatencyPair> latency;
  std::vector<MeasuredStep> steps;
};

// Reads (passed records only):
//   suite nccl|mpi, name allreduce, variant out-of-place|in-place: a size sweep; n = ranks, T = time_us.mean
//   suite nccl|mpi, name allreduce, variant "scaling N node(s)" / "scaling probe ...": one point per node
//     count, joined into one curve across node counts (points on more than one node only)
//   suite tcp, name bandwidth: extra.goodput_Gbps;  suite tcp, name latency: time_us (half round trips)
//   suite counters: extra.traffic.carried_by per suite and node
//   suite train, name step: time_us.mean against extra.predicted.model_s
// Nodes come from record_nodes (extra.nodes, else the run's). Efficiency from extra.ceiling.
TrainingInputs select_training_inputs(const Report& rep);

}  // namespace gpunet::report::training
