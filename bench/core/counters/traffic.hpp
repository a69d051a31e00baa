// Which wire carried a suite's traffic: byte deltas and rates per interface and RDMA port over the
// suite's run, GPU activity from NVML, and findings when the traffic took an unexpected interface.
// Pure functions over counter snapshots.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "bench/core/counters/sysfs_counters.hpp"

namespace gpunet::bench::counters {

struct LinkTraffic {
  std::string name;  // eth0, or mlx5_0/1 for an RDMA port
  std::string kind;  // "net" or "rdma"
  uint64_t rx_bytes = 0, tx_bytes = 0;
  double rx_Gbps = 0, tx_Gbps = 0;            // mean over the whole window
  double peak_rx_Gbps = 0, peak_tx_Gbps = 0;  // highest rate between two snapshots
  uint64_t bytes() const { return rx_bytes + tx_bytes; }
};

// One NVML reading of one GPU.
struct GpuSample {
  int index = 0;
  double util_pct = 0;
  double pcie_rx_GBps = 0, pcie_tx_GBps = 0;  // NVML's PCIe throughput (a short window before the reading)
};

struct GpuActivity {
  int index = 0;
  int samples = 0;
  double util_mean_pct = 0, util_max_pct = 0;
  double pcie_rx_mean_GBps = 0, pcie_tx_mean_GBps = 0, pcie_rx_peak_GBps = 0, pcie_tx_peak_GBps = 0;
};

struct TrafficSummary {
  double duration_s = 0;
  int snapshots = 0;
  std::vector<LinkTraffic> links;  // links that moved bytes, busiest first
  std::vector<GpuActivity> gpus;
};

// Deltas between the first and last snapshot (a counter that went backwards counts 0 for that
// interval), mean and peak rates; gpu_series holds one vector of readings per snapshot time.
TrafficSummary summarize_traffic(const std::vector<Snapshot>& series,
                                 const std::vector<std::vector<GpuSample>>& gpu_series = {});

struct Expectation {
  std::vector<std::string> expected;       // --expect-if: names, or prefixes ending in '*'; may be empty
  std::vector<std::string> default_route;  // the node's default-route interfaces
  std::vector<std::string> up;             // the node's up interfaces (loopback excluded)
  uint64_t min_bytes = 1 << 20;            // traffic below this is background
  double min_share = 0.05;                 // ... and so is less than this share of the node's traffic
};

// An interface carried this suite's traffic if it moved at least min_bytes and min_share of the
// node's (non-loopback) bytes.
std::vector<const LinkTraffic*> carrying_links(const TrafficSummary& s, const Expectation& e);

// Findings ({severity, kind, message, subjects: [interface], node: host, suite}) when traffic went over an interface outside
// `expected`, or, with no expectation given, over the default-route interface of a node that has
// other interfaces up.
gpunet::json traffic_findings(const TrafficSummary& s, const Expectation& e, const std::string& suite,
                                const std::string& host);

// {duration_s, snapshots, interfaces: {name: {...}}, rdma: {port: {...}}, gpus: [...], carried_by: [...]}
gpunet::json to_json(const TrafficSummary& s, const Expectation& e);

// "ctl0 2.1 MB (peak 0.10 Gb/s)" for the busiest carrying links; "no network traffic" when none.
std::string describe_traffic(const TrafficSummary& s, const Expectation& e);

bool interface_matches(const std::string& name, const std::vector<std::string>& patterns);

}  // namespace gpunet::bench::counters
