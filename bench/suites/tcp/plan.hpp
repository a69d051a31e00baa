// The tcp suite's steps before it runs (pure): how many bandwidth and latency rounds the chosen tests
// take for n participants and how long each is planned to last. The console's progress line and the
// run's `# plan:` line (bench/core/plan.hpp) both count from here.
#pragma once

#include "bench/core/config.hpp"
#include "bench/core/plan.hpp"
#include "bench/engines/pair_schedule.hpp"

namespace gpunet::bench::tcp {

struct TcpSteps {
  int bandwidth = 0;  // bandwidth rounds, each a flow time and its set-up
  int latency = 0;    // ping-pong rounds
};

// The participants: one per node, or every rank when all are on one node.
int tcp_participants(int nodes, int ranks);
TcpSteps tcp_steps(const TcpConfig& cfg, int participants);
// The latency test's pairs in rounds: ring neighbours, or every pair when the spec promises latency
// for every pair (TcpConfig::latency_every_pair).
std::vector<Round> latency_rounds(bool every_pair, int participants);
// A bandwidth round: --tcp-time and its set-up (connect, barrier, the records' exchange).
double tcp_bandwidth_step_s(const TcpConfig& cfg);
double tcp_latency_step_s(const TcpConfig& cfg);
// The suite's part of the plan; re-tests of suspects (decided by the matrix) are not estimated.
PlanPart tcp_plan(const Config& cfg, int nodes, int ranks);

}  // namespace gpunet::bench::tcp
