// The "Training impact" answer, typed: what report::analyse computes once (training_section.hpp) and
// every output reads. report.json carries it as extra.training (to_json); a stored report's is read
// back with from_json, which takes what it can and leaves the rest at its defaults (a hostile file
// renders; it never throws). Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "report/model/record.hpp"
#include "report/training/training_inputs.hpp"
#include "report/training/training_model.hpp"
#include "report/training/training_params.hpp"

namespace gpunet::report::training {

// One measured all-reduce curve and its fits, one per size regime.
struct CurveFit {
  std::string source, path;
  int nodes = 0, ranks = 0;
  int points = 0;
  std::vector<RegimeFit> regimes;
};

struct LatencyCheck {
  std::string pair;
  double p99_rtt_us = 0;
  bool within_threshold = false;
};

// The model every prediction uses (training_section.cpp's choice).
struct ChosenModel {
  std::string path, source, regime;
  bool fallback = false;           // from the TCP pair figures, not an all-reduce curve
  int measured_nodes = 2;
  AlphaBeta model;
  std::optional<double> efficiency;
  std::string network;      // what its figures crossed ("" when unknown)
  std::string passed_over;  // why a curve was passed over ("" when none was)
  std::string note;         // a caveat on the fit ("" when none)
};

// One step of a workload at one node count, and what kind of answer it is.
struct StepRow {
  StepEstimate step;
  std::string kind;  // "measured node count", "model", "projection"
};

struct WorkloadAnswer {
  std::string name;
  double params = 0, grad_bytes = 0;
  int64_t buckets = 0;
  std::optional<int> comm_exceeds_compute_at;  // none: not up to 4096 nodes
  std::vector<StepRow> rows;
};

// A link speed at one efficiency: each row's nodes, comm_s, wait_no_overlap, wait_model and scaling_efficiency.
struct Projection {
  double efficiency = 0, bandwidth_GBps = 0;
  std::optional<int> comm_exceeds_compute_at;
  std::vector<StepEstimate> rows;
};

struct LinkSpeed {
  std::string name;  // "100GbE"
  double rate_Gbps = 0, ceiling_GBps = 0;
  std::optional<Projection> at_run_efficiency;  // this run's efficiency, where known
  Projection at_capped_efficiency;              // capped at the typical efficiency
};

struct AlphaWait {
  double alpha_s = 0, wait_no_overlap = 0;
};

// The focus workload's wait at 100GbE with alpha halved, as chosen and doubled.
struct AlphaSensitivity {
  double alpha_s = 0;
  std::string from, workload, link;
  int nodes = 0;
  std::vector<AlphaWait> waits;
};

struct DataMovement {
  std::string network;
  double bandwidth_GBps = 0, seconds = 0;
  bool estimate = false;
};

struct TrainingResult {
  TrainingParams inputs;
  std::vector<CurveFit> fits;
  std::vector<LatencyCheck> latency;
  std::vector<MeasuredStep> measured_steps;
  bool available = false;
  std::string reason;  // why not, when not available
  // When available:
  ChosenModel model;
  std::vector<WorkloadAnswer> workloads;
  std::string link_speeds_workload;
  std::vector<LinkSpeed> link_speeds;
  AlphaSensitivity alpha_sensitivity;
  std::vector<DataMovement> data_movement;
};

// The parameters as report.json states them (extra.training.inputs), with the defaults used and the
// model's constants; params_from_json reads them back (a re-rendered report keeps the run's; a value of the
// wrong type keeps its default).
gpunet::json params_json(const TrainingParams& p);
TrainingParams params_from_json(const gpunet::json& j);

// The fit's algorithm, as the section states it.
std::string regime_algorithm(const std::string& regime);

void to_json(gpunet::json& j, const TrainingResult& t);
void from_json(const gpunet::json& j, TrainingResult& t);
// A stored report's section (extra.training), read back; none when it has none or it is not an object.
std::optional<TrainingResult> training_result_of(const Report& rep);

}  // namespace gpunet::report::training
