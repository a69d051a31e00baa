// The figure promises of a spec (bandwidth, latency, stability, homogeneity.figures), each judged for
// every subject it covers. Pure; used by evaluate() in report/judge/verdicts.cpp.
#pragma once

#include <cstddef>
#include <optional>

#include "report/model/record.hpp"
#include "report/judge/spec.hpp"
#include "report/judge/verdicts.hpp"

namespace gpunet::report {

// `promised_Gbps`: the rate the spec promises (link.rate_Gbps or nic.speed_Gbps), against which an
// efficiency promise on a Gb/s or GB/s figure is judged; nullopt judges against the path's ceiling.
Verdict judge_bandwidth(const Report& report, const BandwidthPromise& b, std::size_t i, std::optional<double> promised_Gbps);
Verdict judge_latency(const Report& report, const LatencyPromise& l, std::size_t i);
Verdict judge_stability(const Report& report, const StabilityPromise& s, std::size_t i);
Verdict judge_spread(const Report& report, const SpreadPromise& s, std::size_t i);

}  // namespace gpunet::report
