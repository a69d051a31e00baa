#include "bench/suites/node/team_barrier.hpp"

namespace gpunet::bench::node {

namespace {

constexpr int kSpins = 300'000;         // libgomp's GOMP_SPINCOUNT default
constexpr int kThrottledSpins = 1'000;  // libgomp's, for more threads than CPUs

void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

TeamBarrier::TeamBarrier(int members, int spins) : members_(members), spins_(spins) {}

int TeamBarrier::spins_for(int members, int cpus) { return members <= cpus ? kSpins : kThrottledSpins; }

void TeamBarrier::arrive_and_wait() {
  // A member reads the phase before it arrives: the phase cannot move on before it has arrived.
  const std::uint32_t phase = phase_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == members_) {
    arrived_.store(0, std::memory_order_relaxed);  // published by the release below
    phase_.fetch_add(1, std::memory_order_release);
    phase_.notify_all();
    return;
  }
  for (int i = 0; i < spins_; ++i) {
    if (phase_.load(std::memory_order_acquire) != phase) return;
    relax();
  }
  while (phase_.load(std::memory_order_acquire) == phase) phase_.wait(phase, std::memory_order_acquire);
}

}  // namespace gpunet::bench::node
