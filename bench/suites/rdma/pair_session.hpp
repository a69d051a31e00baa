// One pair of ranks walking the plan: connect (open the endpoint on the chosen port, exchange facts
// and QP information over MPI, INIT->RTR->RTS), then WRITE bandwidth, bidirectional bandwidth and
// ping-pong latency through the Runner. The lower rank of the pair emits the records.
//
// Every plan step is exactly two watchdog steps on every rank (measure, then agree), also on a rank
// that is idle in this round or whose pair already failed, so the watchdog's step counts stay equal
// and a hang names the right rank. After each step the two ends exchange their state, so a failure
// on one side (verbs error, completion error, deadline) becomes a failed record on both, never a wait.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include "bench/suites/rdma/engine.hpp"
#include "bench/suites/rdma/plan.hpp"
#include "bench/suites/rdma/side_facts.hpp"
#include "bench/core/step_progress.hpp"
#include "bench/core/suite.hpp"

namespace gpunet::bench::rdma {

// What this rank brings to every pair: its port choice (on discovery, which it points into).
struct LocalChoice {
  const Discovery* discovery = nullptr;
  PortSelection selection;
  std::string sys_root = "/sys";
  // Several rails (--rdma-dev with a list, or all): this pass's rail and every rank's "dev:port" on
  // it, which the subjects (host:dev:port) and the figures' "rail" parameter carry. -1: one device.
  int rail = -1;
  std::vector<std::string> rail_ports;
};

class PairSession {
 public:
  // pair_comm: the two ranks of this pair (this rank and peer_world_rank), or MPI_COMM_NULL when idle.
  PairSession(const SuiteContext& ctx, MPI_Comm pair_comm, int peer_world_rank, const LocalChoice& local, std::string label);
  // Walks the plan; each step of it is a step of `steps` (rank 0 shows them).
  void run(const std::vector<PlanStep>& plan, StepProgress& steps);

 private:
  struct Outcome {
    bool ok = true;
    std::string kind = "ok";  // ok, skip, fail
    std::string reason;
  };
  void idle_step(const std::string& name) const;
  void connect(const PlanStep& s);
  void measure(const PlanStep& s);
  // Exchanges this end's outcome (and payload) with the peer; returns the pair's verdict.
  Outcome agree(const Outcome& mine, gpunet::json payload, gpunet::json* peer_payload);
  std::string step_label(const PlanStep& s) const;  // "0<->1 write_bw 8 MiB host"
  std::string step_name(const PlanStep& s) const;   // the watchdog's: "rdma " and the label
  double deadline_s() const;
  report::Record base_record(const PlanStep& s) const;
  void attach_ceiling(report::Record& r) const;
  report::Subject pair_subject() const;  // lower rank -> higher rank, by host (and port on a rail)
  void add_rail(report::Record& r) const;  // the "rail" parameter and extra.rail, on a rail only
  void emit(report::Record r) const;

  const SuiteContext& ctx_;
  MPI_Comm comm_;
  int peer_;       // world rank
  int peer_in_comm_ = 1;
  int role_ = 0;   // 0: lower rank (sender, initiator, reporter); 1: the other
  const LocalChoice& local_;
  std::string label_;  // "0<->1"
  std::unique_ptr<Endpoint> ep_;
  bool live_ = false;  // the current memory phase is connected and healthy
  SideFacts me_, peer_facts_;
};

}  // namespace gpunet::bench::rdma
