// The steps one pair of ranks runs, built from the configuration alone, so that every rank (also one
// idle in a round) can walk the same list and the watchdog's step counts stay aligned.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/core/config.hpp"
#include "bench/suites/rdma/engine.hpp"

namespace gpunet::bench::rdma {

inline constexpr int64_t kLatencyMaxBytes = 64 << 10;  // latency sweeps stop here
inline constexpr int64_t kMaxMessageBytes = 1LL << 30;  // larger sweep sizes are left out

struct PlanStep {
  enum class Kind { connect, bandwidth, bidir, latency } kind = Kind::connect;
  MemoryKind memory = MemoryKind::host;
  int64_t bytes = 0;
  bool headline = false;  // the one large size (--rdma-size)
};

std::string to_string(PlanStep::Kind k);  // connect, write_bw, write_bw_bidir, write_lat
std::string to_string(MemoryKind m);      // host, cuda

// pair mode: per memory kind, connect, then WRITE bandwidth over the sweep (with --rdma-size added),
// bidirectional too with --rdma-bidir, then latency over the sweep sizes up to 64 KiB. GPU memory
// (GPUDirect) runs the large size and the smallest latency size only.
// matrix mode: connect, bandwidth at --rdma-size, latency at the smallest size; host memory unless
// --rdma-mem cuda.
std::vector<PlanStep> build_plan(const Config& cfg, bool built_with_cuda);

// WRITEs per timed operation at `bytes`: about 8 MiB of data, from 4 to 4096 messages.
int writes_per_op(int64_t bytes);

}  // namespace gpunet::bench::rdma
