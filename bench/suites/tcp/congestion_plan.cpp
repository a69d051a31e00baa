#include "bench/suites/tcp/congestion_plan.hpp"

#include <algorithm>

namespace gpunet::bench::tcp {

CongestionPlan congestion_plan(int n) {
  CongestionPlan p;
  if (n < kCongestionMinParticipants) {
    p.why_not = "congestion needs " + std::to_string(kCongestionMinParticipants) +
                " or more participants (victim pairs and congestors on other nodes); this run has " + std::to_string(n);
    return p;
  }
  const int pairs = std::max(1, n / 10);
  const int stride = n / pairs;
  std::vector<bool> victim(static_cast<size_t>(n), false);
  for (int k = 0; k < pairs; ++k) {
    const FlowSpec v{k * stride, k * stride + stride / 2};
    p.victims.push_back(v);
    victim[static_cast<size_t>(v.src)] = victim[static_cast<size_t>(v.dst)] = true;
  }
  for (int i = 0; i < n; ++i)
    if (!victim[static_cast<size_t>(i)]) p.congestors.push_back(i);
  for (size_t i = 0; i < p.congestors.size(); ++i)
    p.incast.push_back({p.congestors[i], p.victims[i % p.victims.size()].dst});
  for (size_t g = 0; g < p.congestors.size(); g += kAllToAllGroup) {
    const size_t end = std::min(p.congestors.size(), g + kAllToAllGroup);
    for (size_t a = g; a < end; ++a)
      for (size_t b = g; b < end; ++b)
        if (a != b) p.all_to_all.push_back({p.congestors[a], p.congestors[b]});
  }
  return p;
}

std::vector<FlowSpec> congestor_flows(const CongestionPlan& plan) {
  std::vector<FlowSpec> out = plan.incast;
  out.insert(out.end(), plan.all_to_all.begin(), plan.all_to_all.end());
  return out;
}

}  // namespace gpunet::bench::tcp
