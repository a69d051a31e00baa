// A team of threads that run one pass of a memory kernel together, as an OpenMP parallel loop does:
// member m of n runs work(m, n) (its slice), the calling thread is member 0, and pass() returns when
// every member has finished, so a pass's time spans the slowest member and one pass covers the
// whole array once. Members are bound to the CPUs of a NUMA node.
#pragma once

#include <atomic>
#include <barrier>
#include <functional>
#include <thread>
#include <vector>

namespace gpunet::bench::node {

class ThreadTeam {
 public:
  using Work = std::function<void(int member, int members)>;
  ThreadTeam(int members, int numa, Work work);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  void pass();  // every member runs its work once; returns when all have
  int size() const { return members_; }

 private:
  void serve(int member);

  int members_;
  int numa_;
  Work work_;
  std::barrier<> start_, done_;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace gpunet::bench::node
