#include "bench/core/counters/nvml.hpp"

#include <dlfcn.h>

namespace gpunet::bench::counters {

// The few NVML entry points used, by their C signatures (nvml.h); 0 is NVML_SUCCESS.
struct Nvml::Api {
  struct Utilization {
    unsigned int gpu, memory;
  };
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*count)(unsigned int*) = nullptr;
  int (*handle)(unsigned int, void**) = nullptr;
  int (*utilization)(void*, Utilization*) = nullptr;
  int (*pcie)(void*, int, unsigned int*) = nullptr;  // counter 0 = TX bytes, 1 = RX bytes; KB/s
};

namespace {
template <typename Fn>
bool bind(void* lib, const char* name, Fn& fn) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  return fn != nullptr;
}
}  // namespace

Nvml::Nvml(void* lib, std::unique_ptr<Api> api) : lib_(lib), api_(std::move(api)) {}

std::unique_ptr<Nvml> Nvml::open(std::string& why) {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    why = "NVML not available (libnvidia-ml.so.1 not found: no NVIDIA driver)";
    return nullptr;
  }
  auto api = std::make_unique<Api>();
  const bool ok = bind(lib, "nvmlInit_v2", api->init) && bind(lib, "nvmlShutdown", api->shutdown) &&
                  bind(lib, "nvmlDeviceGetCount_v2", api->count) && bind(lib, "nvmlDeviceGetHandleByIndex_v2", api->handle) &&
                  bind(lib, "nvmlDeviceGetUtilizationRates", api->utilization) &&
                  bind(lib, "nvmlDeviceGetPcieThroughput", api->pcie);
  if (!ok || api->init() != 0) {
    why = ok ? "NVML did not initialise (nvmlInit failed)" : "NVML lacks an entry point this build uses";
    dlclose(lib);
    return nullptr;
  }
  std::unique_ptr<Nvml> n(new Nvml(lib, std::move(api)));
  unsigned int count = 0;
  if (n->api_->count(&count) == 0)
    for (unsigned int i = 0; i < count; ++i) {
      void* h = nullptr;
      if (n->api_->handle(i, &h) == 0) n->handles_.push_back(h);
    }
  if (n->handles_.empty()) {
    why = "NVML found no GPU";
    return nullptr;
  }
  return n;
}

Nvml::~Nvml() {
  if (api_ && api_->shutdown) api_->shutdown();
  if (lib_) dlclose(lib_);
}

std::vector<GpuSample> Nvml::sample() const {
  std::vector<GpuSample> out;
  for (size_t i = 0; i < handles_.size(); ++i) {
    GpuSample s;
    s.index = static_cast<int>(i);
    Api::Utilization u{};
    if (api_->utilization(handles_[i], &u) == 0) s.util_pct = u.gpu;
    unsigned int tx = 0, rx = 0;
    if (api_->pcie(handles_[i], 0, &tx) == 0) s.pcie_tx_GBps = tx * 1e3 / 1e9;
    if (api_->pcie(handles_[i], 1, &rx) == 0) s.pcie_rx_GBps = rx * 1e3 / 1e9;
    out.push_back(s);
  }
  return out;
}

}  // namespace gpunet::bench::counters
