// The CUDA runtime as the CUDA-agnostic suites (pcie, node) see it: whether GPUs can be used here
// and why not, what each GPU is, and timed host<->device copies. This header needs no CUDA; a build
// without CUDA compiles it too, and probe_gpus() then says "built without CUDA".
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace gpunet::bench::gpu {

struct GpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// count > 0, or the reason no GPU can be used (the CUDA runtime's own words).
struct GpuProbe {
  int count = 0;
  std::string reason;
  bool ok() const { return count > 0; }
};
GpuProbe probe_gpus();  // never throws

struct GpuInfo {
  int ordinal = -1;
  std::string name;
  std::string bus_id;  // dddd:bb:dd.f, lower case (sysfs form)
  int64_t memory_bytes = 0;
};
GpuInfo gpu_info(int ordinal);  // throws GpuError

enum class CopyDir { h2d, d2h, bidir };
enum class HostKind { pinned, pageable };
std::string to_string(CopyDir d);
std::string to_string(HostKind k);

// One host<->device copy test on one GPU: host memory (pinned or pageable, on a NUMA node or where
// the OS puts it for numa_node < 0) filled with a pattern, device memory, a stream and CUDA events.
// bidir runs an H2D and a D2H copy at once on two streams.
class CopyCase {
 public:
  CopyCase(int device, CopyDir dir, HostKind kind, int numa_node, int64_t bytes);  // throws GpuError
  ~CopyCase();
  CopyCase(const CopyCase&) = delete;
  CopyCase& operator=(const CopyCase&) = delete;

  void launch();                      // enqueues one copy (bidir: one each way) between events
  double wait_s(double timeout_s);    // waits; GPU seconds by events (bidir: the longer stream)
  double run_s(double timeout_s) { launch(); return wait_s(timeout_s); }
  int64_t wrong_bytes();              // copies the pattern through once more and compares
  int host_numa() const;              // NUMA node the host buffer landed on; -1 unknown
  int64_t bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpunet::bench::gpu
