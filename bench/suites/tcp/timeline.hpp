// Throughput over time and the summaries built from it: pure.
#pragma once

#include <cstdint>
#include <vector>

namespace gpunet::bench::tcp {

// Received bytes in fixed intervals from a flow's start.
class Timeline {
 public:
  explicit Timeline(double interval_s);
  void add(double t_s, int64_t bytes);  // t_s: seconds since the flow's start; < 0 counts as 0
  // Gb/s of each interval up to end_s; a last interval shorter than half an interval is left out,
  // a longer one is divided by its own length.
  std::vector<double> gbps(double end_s) const;
  double interval_s() const { return interval_s_; }

 private:
  double interval_s_;
  std::vector<int64_t> bins_;
};

// Half-round-trip (or any) latency samples in µs.
struct LatencySummary {
  double min = 0, p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0, mean = 0, stddev = 0;
  double jitter = 0;  // mean absolute difference of consecutive samples (RFC 3550 style, unsmoothed)
  int64_t samples = 0;
};
LatencySummary summarize_latency(const std::vector<double>& us);

struct Dip {
  double start_s = 0, end_s = 0;  // interval boundaries
  double min_Gbps = 0;
};

struct StabilitySummary {
  double min_Gbps = 0, p1_Gbps = 0, p50_Gbps = 0, max_Gbps = 0;
  double threshold_Gbps = 0;
  std::vector<Dip> dips;        // runs of consecutive intervals below the threshold
  double below_s = 0;           // total time below the threshold
  int64_t intervals = 0;
};
// threshold_Gbps: an interval below it is part of a dip.
StabilitySummary summarize_stability(const std::vector<double>& gbps, double interval_s, double threshold_Gbps);

}  // namespace gpunet::bench::tcp
