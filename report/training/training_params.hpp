// What the user tells the training-impact model (gpunet-bench --model-params, --grad-bytes,
// --bucket-size, --step-compute-s, --sharding, --dataset-size, --latency-threshold-us, --alpha-us), and the stated defaults
// for what they leave out. Plain values: bench/core/config.hpp carries one of these.
#pragma once

#include <optional>
#include <string>

#include "report/training/training_model.hpp"

namespace gpunet::report::training {

// Stated defaults for what the user did not give.
inline constexpr double kDefaultStepComputeS = 0.5;       // the compute of one step, seconds
inline constexpr double kDefaultDatasetBytes = 1e12;      // 1 TB to move
inline constexpr double kDefaultLatencyThresholdUs = 100;  // p99 round trip an interactive user accepts
inline constexpr int kWhatIfNodes[] = {2, 4, 8, 16, 32};
inline constexpr int kMaxFakeClusterNodes = 8;  // larger counts can only be projections here
// Bound on the alpha the link-speed estimates use when it comes from this run (not --alpha-us): a
// one-way Ethernet latency between hosts is microseconds, not the milliseconds of a CPU-starved host.
inline constexpr double kMaxProjectionAlphaS = 100e-6;

inline std::string to_string(Sharding s) { return s == Sharding::full ? "full" : "none"; }
inline std::optional<Sharding> sharding_from_string(const std::string& s) {
  if (s == "none") return Sharding::none;
  if (s == "full") return Sharding::full;
  return std::nullopt;
}

struct TrainingParams {
  std::optional<double> model_params;    // --model-params: the user's model besides the presets
  double grad_bytes_per_param = kBf16Bytes;  // --grad-bytes
  double bucket_bytes = static_cast<double>(kDdpBucketBytes);  // --bucket-size
  std::optional<double> step_compute_s;  // --step-compute-s; default kDefaultStepComputeS, said so
  Sharding sharding = Sharding::none;    // --sharding
  std::optional<double> dataset_bytes;   // --dataset-size; default kDefaultDatasetBytes
  std::optional<double> latency_threshold_us;  // --latency-threshold-us
  std::optional<double> alpha_us;              // --alpha-us: alpha of the link-speed estimates
  bool given = false;  // any of them was on the command line (`report` then replaces the stored ones)
};

}  // namespace gpunet::report::training
