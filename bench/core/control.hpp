// The control plane: every rank's watchdog, on a channel of its own (bench/core/control_channel.hpp: a
// TCP connection from every rank to rank 0, authenticated at start). Only the main thread calls
// MPI; each rank's service thread sleeps in poll() until a frame arrives, a heartbeat is due
// (about once a second) or the nearest deadline passes.
//  - Steps: every rank announces entering and leaving each step. Rank 0 ends the job (exit code 3)
//    when a step exceeds the timeout, naming the step and the ranks and hosts that did not arrive.
//    A rank-local step (StepScope::this_rank: node-leader work such as the pcie and node suites) is
//    timed on its own and, when late, names the rank that runs it; the other ranks are not blamed.
//  - Dead and stalled ranks: a member whose connection closes is named at once as dead, one silent
//    past the bound as stalled, with its host and step. A member that loses rank 0 ends the job
//    itself and says so (rank 1 tells; the others stay quiet), and tells rank 0 to stay quiet too.
//  - Ending the job: the rank that notices prints the one line (rank 0 also appends a watchdog
//    record), tells every other rank over the channel to print nothing more and exit, and leaves
//    with _exit(3); mpirun then ends the job (no MPI_Abort, which a second thread may not call).
//  - Records: every rank's records stream to rank 0 at once and are appended to results.jsonl.
//  - Live lines: console text from any rank (interval lines of a running flow) travels to rank 0 on
//    the channel (never over MPI) and is printed there by the service thread through the console
//    writer, which also refreshes the progress line about once a second.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench/core/console_writer.hpp"
#include "bench/core/control_channel.hpp"
#include "bench/core/mpi_context.hpp"
#include "bench/core/results_sink.hpp"
#include "report/model/record.hpp"

namespace gpunet::bench {

enum class StepScope { all_ranks, this_rank };

class ControlPlane {
 public:
  // sink must be non-null on rank 0 and is ignored elsewhere. Collective: opens the channel on
  // control_if ("" = see bench/core/control_wireup.hpp); throws std::runtime_error when it cannot.
  // console: rank 0's console writer, or null (other ranks, --quiet).
  ControlPlane(const MpiContext& mpi, double timeout_s, ResultsSink* sink, const std::string& control_if = "",
               ConsoleWriter* console = nullptr);
  ~ControlPlane();
  ControlPlane(const ControlPlane&) = delete;
  ControlPlane& operator=(const ControlPlane&) = delete;

  // Main thread, at the start and the end of each step. all_ranks steps are entered by every rank in
  // the same order; this_rank steps by one rank alone, outside any all_ranks step.
  void enter(const std::string& step, StepScope scope = StepScope::all_ranks);
  void leave(StepScope scope = StepScope::all_ranks);
  void emit(const report::Record& r);   // any rank: the record reaches results.jsonl on rank 0
  // Any rank, any thread, never blocks: whole lines of console text for rank 0 to print.
  void live(const std::string& text);
  // Rank 0's main thread: prints the live text of its own ranks still queued (before a record line,
  // so that rank 0's lines keep their order).
  void print_live();
  // Collective end of the run: returns once rank 0 holds every rank's records.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  struct Peer {
    long entered = 0, left = 0;
    std::string step;
    Clock::time_point since{}, heard{};
    bool done = false;      // finished the run (rank 0's view) or got 'finished' (a member's view of rank 0)
    bool gone = false;      // closed its connection in order (the run ends on an error)
    bool in_local = false;  // inside a this_rank step
    std::string local_step;
    Clock::time_point local_since{};
  };

  void serve();
  bool serve_once(Clock::time_point& next_beat);
  void handle(size_t link, const control::Frame& f);
  void lost(size_t link);
  Clock::time_point next_deadline() const;  // mu_ held
  void check_root_deadlines(Clock::time_point now);
  void check_local_deadlines(Clock::time_point now, std::unique_lock<std::mutex>& lock);
  void check_member_deadlines(Clock::time_point now);
  void moved(Clock::time_point deadline);  // mu_ held: wakes the service thread for an earlier deadline
  void send_to_root(char type, std::string_view payload = {});
  Peer& self() { return peers_[mpi_.is_root() ? 0 : 1]; }
  std::string place_of(size_t peer) const;  // mu_ held: "during step 'x'", "after step 'x'", ...
  // Ends the job: rank 0 appends a watchdog record; the teller prints the line; every other rank is
  // told to exit quietly; then _exit(3) (after a death, once mpirun has had time to end the job).
  [[noreturn]] void end_job(int culprit_rank, const std::string& step, const std::string& line,
                            report::Status status, bool tell, bool died = false);
  [[noreturn]] void quiet_exit(bool after_death);
  // Rank 0, at a step boundary after results.jsonl failed: every record to a fallback, one line
  // saying where, every other rank told to exit quietly, then _exit(3).
  [[noreturn]] void stop_for_unwritable_results(const std::string& step);

  const MpiContext& mpi_;
  ConsoleWriter* console_;
  std::mutex live_mu_;                 // the queue of rank 0's own live text
  std::vector<std::string> live_queue_;
  std::mutex live_print_mu_;           // held while queued text is printed, so batches keep their order
  const double timeout_s_;
  const double silent_end_s_;  // no heartbeat for this long ends the job
  ResultsSink* sink_;
  std::vector<std::unique_ptr<control::Link>> links_;  // rank 0: by rank ([0] empty); else [0] = rank 0
  net::Fd wake_;                                        // eventfd: the main thread wakes the service thread
  long seq_ = 0;  // main thread only
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::vector<Peer> peers_;  // rank 0: every rank; elsewhere: [0] = rank 0, [1] = self
  Clock::time_point planned_wake_{};
  bool stop_ = false;
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
