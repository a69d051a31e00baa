#include "bench/suites/node/thread_team.hpp"

#include <algorithm>

#include "bench/engines/numa.hpp"

namespace gpunet::bench::node {

ThreadTeam::ThreadTeam(int members, int numa, Work work)
    : members_(std::max(1, members)), numa_(numa), work_(std::move(work)), start_(members_), done_(members_) {
  run_on_node(numa_);
  for (int m = 1; m < members_; ++m) threads_.emplace_back([this, m] { serve(m); });
}

ThreadTeam::~ThreadTeam() {
  stop_ = true;
  start_.arrive_and_wait();
  for (auto& t : threads_) t.join();
}

void ThreadTeam::pass() {
  start_.arrive_and_wait();
  work_(0, members_);
  done_.arrive_and_wait();
}

void ThreadTeam::serve(int member) {
  run_on_node(numa_);
  for (;;) {
    start_.arrive_and_wait();
    if (stop_) return;
    work_(member, members_);
    done_.arrive_and_wait();
  }
}

}  // namespace gpunet::bench::node
