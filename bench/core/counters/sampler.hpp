// A background thread that reads the node's counters (interfaces, RDMA ports, NVML) at a fixed
// interval between start() and stop(), for one suite.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/core/counters/nvml.hpp"
#include "bench/core/counters/sysfs_counters.hpp"
#include "bench/core/counters/traffic.hpp"

namespace gpunet::bench::counters {

class Sampler {
 public:
  // nvml may be null (no GPU). NVML is read at most every nvml_interval_s (each reading is slow).
  Sampler(std::string sys_root, double interval_s, const Nvml* nvml, double nvml_interval_s = 0.5);
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  void start();             // finds the counter files; first snapshot now, then one every interval
  TrafficSummary stop();    // last snapshot now; joins the thread

 private:
  void loop();
  void take();

  const std::string sys_root_;
  const double interval_s_, nvml_interval_s_;
  const Nvml* nvml_;
  std::unique_ptr<CounterFiles> files_;  // from start() on
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::vector<Snapshot> series_;
  std::vector<std::vector<GpuSample>> gpu_series_;
  double last_gpu_t_ = -1e9;
  std::thread thread_;
};

double monotonic_seconds();

}  // namespace gpunet::bench::counters
