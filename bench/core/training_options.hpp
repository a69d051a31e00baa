// The options of the training-impact model (report/training/training_params.hpp): --model-params,
// --grad-bytes, --bucket-size, --step-compute-s, --sharding, --dataset-size, --latency-threshold-us. Kept in one
// place so the option list can move as a whole.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "report/training/training_params.hpp"

namespace gpunet::bench {

// The options' text as given; empty = not given.
struct TrainingOptionText {
  std::string model_params, grad_bytes, bucket_size, step_compute_s, sharding, dataset_size, latency_threshold_us,
      alpha_us;
};

void add_training_options(CLI::App& app, TrainingOptionText& t);
// Validates (finite, positive; sizes with K/M/G/T suffixes) into `out`; the one-line error otherwise.
std::optional<std::string> finish_training_options(const TrainingOptionText& t, report::training::TrainingParams& out);

}  // namespace gpunet::bench
