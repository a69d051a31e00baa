// The barrier a ThreadTeam's members meet at before and after each pass. It waits as an OpenMP
// team waits between parallel loops (libgomp spins about 300,000 pauses before it sleeps): it spins
// for a while first and only then sleeps on the futex. std::barrier sleeps after a few spins, and a
// member that slept wakes late when its CPU has gone idle (an idle vCPU of a virtual machine takes
// its host's scheduling to wake), so every pass would start or end with one member behind: time the
// yardstick's OpenMP loop does not pay. A team with more members than CPUs spins as libgomp's
// throttled spin does (1,000 pauses), since a spinning member then holds a CPU another one needs.
#pragma once

#include <atomic>
#include <cstdint>

namespace gpunet::bench::node {

class TeamBarrier {
 public:
  TeamBarrier(int members, int spins);
  // The spins before sleeping for a team of `members` on `cpus` CPUs, as libgomp chooses them.
  static int spins_for(int members, int cpus);
  TeamBarrier(const TeamBarrier&) = delete;
  TeamBarrier& operator=(const TeamBarrier&) = delete;

  int spins() const { return spins_; }

  // Returns when all members have arrived in this phase.
  void arrive_and_wait();

 private:
  const int members_, spins_;
  std::atomic<int> arrived_{0};
  std::atomic<std::uint32_t> phase_{0};
};

}  // namespace gpunet::bench::node
