#include "bench/engines/wait.hpp"

#include <algorithm>
#include <thread>

namespace gpunet::bench::gpu {

WaitOutcome wait_until(const std::function<Poll(std::string& error)>& poll, double timeout_s,
                       std::chrono::microseconds interval, std::chrono::microseconds spin) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  WaitOutcome out;
  for (;;) {
    const bool last = Clock::now() >= deadline;
    std::string error;
    const Poll p = poll(error);
    out.waited_s = std::chrono::duration<double>(Clock::now() - start).count();
    if (p == Poll::done) return out;
    if (p == Poll::failed) {
      out.kind = WaitOutcome::Kind::failed;
      out.error = error;
      return out;
    }
    if (last) {
      out.kind = WaitOutcome::Kind::timed_out;
      return out;
    }
    if (Clock::now() - start < spin)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(interval);
  }
}

double gpu_wait_timeout_s(double step_timeout_s) { return std::max(0.05, std::min(step_timeout_s * 0.9, step_timeout_s - 1.0)); }

}  // namespace gpunet::bench::gpu
