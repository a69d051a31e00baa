// GPU utilisation and PCIe throughput through NVML, loaded at run time (dlopen of
// libnvidia-ml.so.1), so the binary needs no NVIDIA driver to start: without it, open() says why.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bench/core/counters/traffic.hpp"

namespace gpunet::bench::counters {

class Nvml {
 public:
  // nullptr when the library or a GPU is missing; `why` says which.
  static std::unique_ptr<Nvml> open(std::string& why);
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  // One reading per GPU (utilisation, PCIe rx/tx). Each PCIe query takes NVML about 20 ms.
  std::vector<GpuSample> sample() const;
  int devices() const { return static_cast<int>(handles_.size()); }

 private:
  struct Api;
  Nvml(void* lib, std::unique_ptr<Api> api);
  void* lib_ = nullptr;
  std::unique_ptr<Api> api_;
  std::vector<void*> handles_;
};

}  // namespace gpunet::bench::counters
