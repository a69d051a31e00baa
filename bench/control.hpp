// The control plane: one service thread per rank, on its own communicator.
//  - Steps: every rank announces entering and leaving each step. Rank 0 ends the job (exit code 3)
//    when a step exceeds the timeout, naming the step and the ranks and hosts that did not arrive.
//    A rank-local step (StepScope::this_rank: node-leader work such as the pcie and node suites) is
//    timed on its own and, when late, names the rank that runs it; the other ranks are not blamed.
//  - Heartbeats: every rank's thread beats; a rank that stops beating is named as the culprit.
//    Non-root ranks end the job themselves if rank 0 falls silent.
//  - Records: every rank's records stream to rank 0 at once and are appended to results.jsonl.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/mpi_context.hpp"
#include "bench/results_sink.hpp"
#include "report/record.hpp"

namespace gpunet::bench {

enum class StepScope { all_ranks, this_rank };

class ControlPlane {
 public:
  // sink must be non-null on rank 0 and is ignored elsewhere.
  ControlPlane(const MpiContext& mpi, double timeout_s, ResultsSink* sink);
  ~ControlPlane();
  ControlPlane(const ControlPlane&) = delete;
  ControlPlane& operator=(const ControlPlane&) = delete;

  // Main thread, at the start and the end of each step. all_ranks steps are entered by every rank in
  // the same order; this_rank steps by one rank alone, outside any all_ranks step.
  void enter(const std::string& step, StepScope scope = StepScope::all_ranks);
  void leave(StepScope scope = StepScope::all_ranks);
  void emit(const report::Record& r);   // any rank: the record reaches results.jsonl on rank 0
  // Collective end of the run: returns once rank 0 holds every rank's records.
  void finish();

 private:
  struct Peer {
    long entered = 0, left = 0;
    std::string step;
    std::chrono::steady_clock::time_point since{}, heard{};
    bool done = false;
    bool in_local = false;  // inside a this_rank step
    std::string local_step;
    std::chrono::steady_clock::time_point local_since{};
  };
  using Clock = std::chrono::steady_clock;

  void serve_root();
  void serve_member();
  void handle(int source, const std::string& msg);
  void check_root_deadlines(Clock::time_point now);
  void check_local_deadlines(Clock::time_point now, std::unique_lock<std::mutex>& lock);
  [[noreturn]] void abort_timeout(int culprit_rank, const std::string& step, const std::string& reason);
  void send(int dest, const std::string& msg) const;

  const MpiContext& mpi_;
  const double timeout_s_;
  ResultsSink* sink_;
  std::atomic<bool> stop_{false};
  long seq_ = 0;  // main thread only
  mutable std::mutex mu_;
  std::condition_variable all_done_;
  std::vector<Peer> peers_;  // rank 0: every rank; elsewhere: [0] = rank 0, [1] = self
  std::thread thread_;
};

// Scope guard: enter on construction, leave on destruction.
class Step {
 public:
  Step(ControlPlane& cp, const std::string& name, StepScope scope = StepScope::all_ranks) : cp_(cp), scope_(scope) {
    cp_.enter(name, scope);
  }
  ~Step() { cp_.leave(scope_); }
  Step(const Step&) = delete;
  Step& operator=(const Step&) = delete;

 private:
  ControlPlane& cp_;
  StepScope scope_;
};

}  // namespace gpunet::bench
