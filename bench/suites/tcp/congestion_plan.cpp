#include "bench/suites/tcp/congestion_plan.hpp"

#include <algorithm>

namespace gpunet::bench::tcp {

namespace {

int rack_at(const std::vector<int>& rack_of, int i) {
  return static_cast<size_t>(i) < rack_of.size() ? rack_of[static_cast<size_t>(i)] : -1;
}

// The victim's receiver: `dst` unless it shares src's known rack; then the first participant after it
// (cyclically) in another known rack that is neither taken nor reserved for another pair.
int cross_rack_receiver(int src, int dst, int n, const std::vector<int>& rack_of, const std::vector<bool>& taken) {
  const int home = rack_at(rack_of, src);
  if (home < 0 || rack_at(rack_of, dst) != home) return dst;
  for (int step = 0; step < n; ++step) {
    const int j = (dst + step) % n;
    const int r = rack_at(rack_of, j);
    if (r >= 0 && r != home && !taken[static_cast<size_t>(j)]) return j;
  }
  return dst;
}

}  // namespace

CongestionPlan congestion_plan(int n, const std::vector<int>& rack_of) {
  CongestionPlan p;
  if (n < kCongestionMinParticipants) {
    p.why_not = "congestion needs " + std::to_string(kCongestionMinParticipants) +
                " or more participants (victim pairs and congestors on other nodes); this run has " + std::to_string(n);
    return p;
  }
  const int pairs = std::max(1, n / 10);
  const int stride = n / pairs;
  std::vector<bool> victim(static_cast<size_t>(n), false);
  for (int k = 0; k < pairs; ++k) victim[static_cast<size_t>(k * stride)] = true;  // every pair's sender, reserved
  for (int k = 0; k < pairs; ++k) {
    const FlowSpec v{k * stride, cross_rack_receiver(k * stride, k * stride + stride / 2, n, rack_of, victim)};
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
