// The tcp suite's runner (internal to the suite): the tests it runs on the participants of a Setup,
// each test on every rail, the rails at once or one after another. suite.cpp holds neighbours, fans
// and latency, suite_bandwidth.cpp the bandwidth rounds, the matrix and the re-tests of its suspects.
// Fabric and congestion run on the first rail.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "bench/core/counters/window_load.hpp"
#include "bench/core/step_progress.hpp"
#include "bench/core/suite.hpp"
#include "bench/engines/pair_schedule.hpp"
#include "bench/suites/tcp/plan.hpp"
#include "bench/suites/tcp/records.hpp"
#include "bench/suites/tcp/retest_plan.hpp"
#include "bench/suites/tcp/setup.hpp"

namespace gpunet::bench::tcp {

// One test on one rail.
struct RailTest {
  size_t rail = 0;
  BandwidthTest test;
};

class TcpSuite {
 public:
  TcpSuite(const SuiteContext& ctx, Setup& s) : ctx_(ctx), cfg_(ctx.cfg.tcp), s_(s), steps_(ctx) { plan_progress(); }

  void neighbours();
  void matrix();
  void fan(bool incast);
  void latency();
  void fabric();  // suite_fabric.cpp
  void congestion();  // congestion.cpp

 private:
  // Rank 0: each participant's leaf switch in --fabric FILE (-1: not listed), the groups random:K draws
  // partners across and within; empty without a fabric or two leaves, or for another pair strategy
  // (suite_fabric.cpp).
  std::vector<int> partner_groups() const;
  // Each participant's host, in the participants' order (suite_fabric.cpp).
  std::vector<std::string> node_hosts() const;
  // Runs one bandwidth test on every participant at once; the records, on rank 0 only.
  std::vector<report::Record> bandwidth(const BandwidthTest& t) { return bandwidth(std::vector<RailTest>{{0, t}})[0]; }
  // Runs tests on several rails at once (one thread per rail on each participant); records per test.
  std::vector<std::vector<report::Record>> bandwidth(const std::vector<RailTest>& tests);
  // The rails that run at once, batch after batch: every rail in one batch, or one rail per batch
  // (--rails one-at-a-time).
  std::vector<std::vector<size_t>> rail_batches() const;
  // One test on every rail, in rail_batches(); on a rail run each copy's label names its rail.
  std::vector<std::vector<RailTest>> on_every_rail(const BandwidthTest& t) const;
  // Runs one test on every rail and emits its records (rank 0).
  void bandwidth_on_rails(const BandwidthTest& t);
  // ", rail 1 (eth1)" on a rail run, else "".
  std::string rail_label(size_t rail) const;
  // This participant's share of one test on one rail: what it sent, received and turned away (null: no part).
  gpunet::json run_part(const RailTest& rt, uint64_t id, bool live);
  // The matrix of every rail: each round on all rails at once, or rail after rail (--rails one-at-a-time).
  std::vector<std::vector<Cell>> matrix_cells(const std::vector<Round>& rounds);
  // One ping-pong round on every rail (in rail_batches()), its records emitted.
  void latency_round(const Round& round, const std::string& label);
  // A round's window on this host: its first snapshot, taken by participants only (none otherwise).
  std::optional<counters::WindowLoad> round_window() const;
  // Every rank: its host's load since `window` began, if it took part; at rank 0, the busy ones by host.
  std::map<std::string, gpunet::json> round_busy_windows(const std::optional<counters::WindowLoad>& window,
                                                           const std::string& what) const;
  LatencyParams latency_params() const;
  // This participant's part of a ping-pong round on one rail (client p.a, server p.b; null: no part),
  // and on rank 0 the outcome of each pair from everyone's gathered parts.
  gpunet::json latency_part(const Round& round, uint64_t id, const LatencyParams& lp, size_t rail = 0);
  std::vector<LatencyOutcome> latency_outcomes(const gpunet::json& all, const Round& round) const;
  // The congestion test's steps (congestion.cpp): the victims' ping-pong, alone or beside the
  // congestors' flows (their goodput runs through bandwidth(), alone or in one test with the congestors).
  std::vector<LatencyOutcome> congestion_latency(const Round& victims, const BandwidthTest* congestors,
                                                 const std::string& label, const LatencyParams& lp);
  void emit_skip(const std::string& name, const std::string& why) const;
  BandwidthParams params(int streams) const;
  // Runs the planned re-tests of one rail; their cells, on rank 0.
  std::vector<Cell> retest(size_t rail, const RetestPlan& plan, double best);
  int size() const { return static_cast<int>(s_.nodes().size()); }
  // Progress (rank 0): the steps the chosen tests take and the seconds each is planned to last.
  void plan_progress();
  double bandwidth_s() const { return tcp_bandwidth_step_s(cfg_); }  // a measurement and its set-up
  // The live interval lines of one test: the sender's function for its intervals (null when off).
  std::function<void(const IntervalReport&)> live_intervals(const BandwidthTest& t) const;
  bool root() const { return ctx_.mpi.is_root(); }
  // Seconds since the suite began, for a record's started_s (when its test began; rank 0's clock).
  double since_start() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

  const SuiteContext& ctx_;
  const TcpConfig& cfg_;
  Setup& s_;
  StepProgress steps_;  // rank 0 shows it; a re-test, known once the matrix has run, adds itself
  uint64_t next_test_ = 1;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace gpunet::bench::tcp
