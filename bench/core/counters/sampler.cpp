#include "bench/core/counters/sampler.hpp"

#include <pthread.h>

#include <chrono>

namespace gpunet::bench::counters {

double monotonic_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Sampler::Sampler(std::string sys_root, double interval_s, const Nvml* nvml, double nvml_interval_s)
    : sys_root_(std::move(sys_root)), interval_s_(interval_s), nvml_interval_s_(nvml_interval_s), nvml_(nvml) {}

Sampler::~Sampler() {
  if (thread_.joinable()) stop();
}

void Sampler::take() {
  if (!files_) return;  // stop() without start()
  const double before = monotonic_seconds();
  Snapshot s = files_->read(before);
  s.t_s = (before + monotonic_seconds()) / 2;  // the readings were taken somewhere in between
  std::vector<GpuSample> g;
  if (nvml_ && s.t_s - last_gpu_t_ >= nvml_interval_s_) {
    g = nvml_->sample();
    last_gpu_t_ = s.t_s;
  }
  std::lock_guard lock(mu_);
  series_.push_back(std::move(s));
  if (!g.empty()) gpu_series_.push_back(std::move(g));
}

void Sampler::start() {
  {
    std::lock_guard lock(mu_);
    stop_ = false;
    series_.clear();
    gpu_series_.clear();
  }
  last_gpu_t_ = -1e9;
  files_ = std::make_unique<CounterFiles>(sys_root_);
  take();
  thread_ = std::thread([this] {
    ::pthread_setname_np(::pthread_self(), "gpunet-counters");  // tells it apart in top -H and profiles
    loop();
  });
}

void Sampler::loop() {
  const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(interval_s_));
  auto next = std::chrono::steady_clock::now() + period;
  for (;;) {
    {
      std::unique_lock lock(mu_);
      if (wake_.wait_until(lock, next, [this] { return stop_; })) return;
    }
    take();
    next += period;
    const auto now = std::chrono::steady_clock::now();
    if (next < now) next = now + period;  // a slow reading: skip the missed ticks
  }
}

TrafficSummary Sampler::stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  take();
  std::lock_guard lock(mu_);
  return summarize_traffic(series_, gpu_series_);
}

}  // namespace gpunet::bench::counters
