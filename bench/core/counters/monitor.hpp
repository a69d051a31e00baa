// Which wire carried each suite's traffic: on every node leader, a Sampler runs while a suite runs;
// at its end the leader emits one record (suite "counters", name = the suite measured) with the
// bytes and rates per interface and RDMA port, NVML GPU activity where present, and findings when
// the traffic took an unexpected interface, and how busy the node's CPUs were with other work
// (report/judge/host_load.hpp reads it).
#pragma once

#include <memory>
#include <string>

#include "bench/core/counters/host_load.hpp"
#include "bench/core/counters/nvml.hpp"
#include "bench/core/counters/sampler.hpp"
#include "bench/core/suite.hpp"

namespace gpunet::bench::counters {

class TrafficMonitor {
 public:
  // Off when --counters-interval is 0. Roots are parameters for tests.
  explicit TrafficMonitor(const SuiteContext& ctx, std::string sys_root = "/sys", std::string proc_root = "/proc");
  ~TrafficMonitor();
  TrafficMonitor(const TrafficMonitor&) = delete;
  TrafficMonitor& operator=(const TrafficMonitor&) = delete;

  void begin(const std::string& suite);  // every rank calls it; node leaders start sampling
  void end();                            // node leaders stop and emit the record

 private:
  const SuiteContext& ctx_;
  const std::string sys_root_, proc_root_;
  bool on_ = false;
  std::string nvml_note_;
  std::unique_ptr<Nvml> nvml_;
  std::unique_ptr<Sampler> sampler_;
  std::string suite_;
  LoadSnapshot load_before_;  // the node's CPU times when the suite began
};

}  // namespace gpunet::bench::counters
