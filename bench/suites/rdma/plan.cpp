#include "bench/suites/rdma/plan.hpp"

#include <algorithm>

#include "bench/core/sizes.hpp"

namespace gpunet::bench::rdma {

std::string to_string(PlanStep::Kind k) {
  switch (k) {
    case PlanStep::Kind::connect: return "connect";
    case PlanStep::Kind::bandwidth: return "write_bw";
    case PlanStep::Kind::bidir: return "write_bw_bidir";
    case PlanStep::Kind::latency: return "write_lat";
  }
  return "connect";
}

std::string to_string(MemoryKind m) { return m == MemoryKind::cuda ? "cuda" : "host"; }

int writes_per_op(int64_t bytes) {
  const int64_t want = (8LL << 20) / std::max<int64_t>(bytes, 1);
  return static_cast<int>(std::clamp<int64_t>(want, 4, 4096));
}

std::vector<PlanStep> build_plan(const Config& cfg, bool built_with_cuda) {
  using K = PlanStep::Kind;
  std::vector<int64_t> sweep;
  for (int64_t b : size_sweep(cfg.min_bytes, cfg.max_bytes, cfg.step_factor, cfg.step_bytes))
    if (b <= kMaxMessageBytes) sweep.push_back(b);
  if (std::find(sweep.begin(), sweep.end(), cfg.rdma_size) == sweep.end()) {
    sweep.push_back(cfg.rdma_size);
    std::sort(sweep.begin(), sweep.end());
  }
  std::vector<int64_t> lat;
  for (int64_t b : sweep)
    if (b <= kLatencyMaxBytes) lat.push_back(b);
  if (lat.empty()) lat.push_back(sweep.front());

  const bool matrix = cfg.rdma_mode == "matrix";
  std::vector<MemoryKind> memories;
  if (cfg.rdma_mem != "cuda") memories.push_back(MemoryKind::host);
  if (cfg.rdma_mem == "cuda" || (cfg.rdma_mem == "auto" && !matrix && built_with_cuda)) memories.push_back(MemoryKind::cuda);

  std::vector<PlanStep> plan;
  for (const MemoryKind m : memories) {
    const bool full = !matrix && m == MemoryKind::host;
    plan.push_back({K::connect, m, 0, false});
    for (int64_t b : full ? sweep : std::vector<int64_t>{cfg.rdma_size}) plan.push_back({K::bandwidth, m, b, b == cfg.rdma_size});
    if (cfg.rdma_bidir && !matrix)
      for (int64_t b : full ? sweep : std::vector<int64_t>{cfg.rdma_size}) plan.push_back({K::bidir, m, b, b == cfg.rdma_size});
    for (int64_t b : full ? lat : std::vector<int64_t>{lat.front()}) plan.push_back({K::latency, m, b, false});
  }
  return plan;
}

}  // namespace gpunet::bench::rdma
