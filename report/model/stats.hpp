// Statistics over per-iteration samples. Pure functions.
#pragma once

#include <vector>

#include "report/model/record.hpp"

namespace gpunet::report {

// Nearest-rank percentile (q in [0,1]) of an unsorted sample; 0 for an empty sample.
double percentile(std::vector<double> samples, double q);

// min, p50, mean, p99, max, sample stddev, CV of the samples.
TimeStats compute_stats(const std::vector<double>& samples);

}  // namespace gpunet::report
