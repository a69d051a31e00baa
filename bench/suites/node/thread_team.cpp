#include "bench/suites/node/thread_team.hpp"

#include <pthread.h>

#include <algorithm>

#include "bench/engines/numa.hpp"

namespace gpunet::bench::node {

namespace {

int usable_cpus() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  return sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 1;
}

}  // namespace

ThreadTeam::ThreadTeam(int members, int numa, Work work)
    : members_(std::max(1, members)), cpus_(numa >= 0 ? node_cpus(numa) : std::vector<int>{}), work_(std::move(work)),
      start_(members_, TeamBarrier::spins_for(members_, usable_cpus())),
      done_(members_, start_.spins()) {
  if (!cpus_.empty()) caller_pinned_ = pthread_getaffinity_np(pthread_self(), sizeof caller_mask_, &caller_mask_) == 0;
  pin(0);
  for (int m = 1; m < members_; ++m) threads_.emplace_back([this, m] { serve(m); });
}

ThreadTeam::~ThreadTeam() {
  stop_ = true;
  start_.arrive_and_wait();
  for (auto& t : threads_) t.join();
  if (caller_pinned_) pthread_setaffinity_np(pthread_self(), sizeof caller_mask_, &caller_mask_);
}

int ThreadTeam::cpu_of(int member) const {
  return cpus_.empty() ? -1 : cpus_[static_cast<size_t>(member) % cpus_.size()];
}

void ThreadTeam::pin(int member) const {
  const int cpu = cpu_of(member);
  if (cpu < 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  pthread_setaffinity_np(pthread_self(), sizeof one, &one);
}

void ThreadTeam::pass() {
  start_.arrive_and_wait();
  work_(0, members_);
  done_.arrive_and_wait();
}

void ThreadTeam::serve(int member) {
  pin(member);
  for (;;) {
    start_.arrive_and_wait();
    if (stop_) return;
    work_(member, members_);
    done_.arrive_and_wait();
  }
}

}  // namespace gpunet::bench::node
