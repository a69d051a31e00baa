// A team of threads that run one pass of a memory kernel together, as an OpenMP parallel loop does:
// member m of n runs work(m, n) (its slice), the calling thread is member 0, and pass() returns when
// every member has finished, so a pass's time spans the slowest member and one pass covers the
// whole array once. Members are pinned as OMP_PROC_BIND=close with OMP_PLACES=cores pins OpenMP
// threads: member m on the m-th CPU of the NUMA node (modulo its CPUs); the calling thread gets its
// own CPU mask back when the team ends. numa < 0: nobody is pinned. Between passes the members wait
// as OpenMP threads do, spinning before they sleep (team_barrier.hpp).
#pragma once

#include <atomic>
#include <functional>
#include <thread>
#include <vector>

#include <sched.h>

#include "bench/suites/node/team_barrier.hpp"

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
  // The CPU member m runs on; -1 when not pinned.
  int cpu_of(int member) const;

 private:
  void serve(int member);
  void pin(int member) const;

  int members_;
  std::vector<int> cpus_;  // of the NUMA node; empty: not pinned
  Work work_;
  cpu_set_t caller_mask_{};
  bool caller_pinned_ = false;
  TeamBarrier start_, done_;  // spins before it sleeps, as an OpenMP team waits
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace gpunet::bench::node
