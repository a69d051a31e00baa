// From gathered engine results to typed records: pure. Rank 0 calls these after each test.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/core/config.hpp"
#include "bench/suites/tcp/bandwidth.hpp"
#include "bench/suites/tcp/ceiling.hpp"
#include "report/analysis/ceilings.hpp"
#include "bench/suites/tcp/latency.hpp"
#include "bench/suites/tcp/timeline.hpp"
#include "report/model/record.hpp"

namespace gpunet::bench::tcp {

// One participant of the suite: a node (its first rank), or a rank when all ranks share one node.
struct Node {
  int rank = 0;
  std::string host;
  net::Endpoint endpoint;  // its listener
  LinkFacts link;
  std::string iface;       // the interface of its rail when the run has several rails, else ""
  int rail = -1;           // which rail (0, 1, ...) when the run has several, else -1
};

struct FlowSpec {
  int src = 0, dst = 0;  // participant indices
  bool operator==(const FlowSpec&) const = default;
};

struct BandwidthTest {
  std::string variant;  // neighbours, matrix, retest, one-to-many, many-to-one
  std::string label;    // the watchdog step, e.g. "tcp matrix round 2/3"
  std::vector<FlowSpec> flows;
  int streams = 1;
  bool bidir = false;   // flows come in both directions of each pair
};

// What every participant reported for one bandwidth test, indexed by participant.
struct TestResults {
  std::vector<std::vector<SendResult>> sent;
  std::vector<std::vector<ReceiveResult>> received;
  std::vector<Rejections> rejected;
};

// Where the traffic went: "loopback" when all ranks share one node, else "network".
struct RunFacts {
  bool single_node = false;
  double stated_rate_bps = 0;
};

// How many of the test's flows leave the flow's source and reach its destination at once. `ran`
// (one per test flow; empty: all ran): the flows that completed; a flow that failed or timed out is
// not counted, so the others' fair share is not divided by it.
struct FlowShares {
  int sending = 1;
  int receiving = 1;
};
FlowShares flow_shares(const BandwidthTest& test, const FlowSpec& flow, const std::vector<bool>& ran = {});

// A flow's ceiling, through report's tcp_flow_ceiling (the analysis's): the bottleneck of both ends'
// links, each end's divided among the test's flows that share it. Gb/s.
report::Ceiling flow_ceiling(const BandwidthTest& test, const FlowSpec& flow, const std::vector<Node>& nodes);

// One record per flow, plus one aggregate record for one-to-many and many-to-one.
std::vector<report::Record> bandwidth_records(const BandwidthTest& test, const TestResults& results,
                                              const std::vector<Node>& nodes, const TcpConfig& cfg, const RunFacts& run);

// The ping-pong of one pair: client = flow.src, server = flow.dst.
inline constexpr std::size_t kLatencySamples = 256;

struct LatencyOutcome {
  report::Status status = report::Status::passed;
  std::string reason;
  LatencySummary half_rtt_us;  // half round trips, as sockperf reports
  report::TimeStats time_us;   // the same samples as TimeStats
  double rtt_p50_us = 0;
  // The figure's samples: evenly spaced quantiles of the half round trips (at most kLatencySamples of
  // them, so a long run stays small), enough for the baseline's U test and its slow-end check.
  std::vector<double> samples_us;
  net::TcpInfo tcp_info;
  Rejections rejected;         // at the server
};
report::Record latency_record(const FlowSpec& pair, const LatencyOutcome& o, const std::vector<Node>& nodes,
                              const TcpConfig& cfg, const RunFacts& run);

// --- the link matrix ---
struct Cell {
  int src = 0, dst = 0;
  double goodput_bps = 0;
  std::optional<double> ceiling_bps;
  report::Status status = report::Status::passed;
};
Cell cell_of(const report::Record& flow_record, const FlowSpec& flow);

// Why a measured pair is slow ("" when it is not): below fraction × best or fraction × ceiling.
std::string slow_reason(const Cell& c, double best_bps, double fraction);
double best_goodput(const std::vector<Cell>& cells);

// The N×N matrix record (Gb/s, null where not measured) with the suspects and their re-tests.
report::Record matrix_record(const std::vector<Cell>& cells, const std::vector<Node>& nodes, int rounds,
                             const std::vector<Cell>& suspects, const std::vector<Cell>& retests, double fraction);

// How much of the matrix a run measured and re-tested.
struct MatrixCoverage {
  std::string pairs = "all";       // all, ring, random:K
  uint64_t seed = 0;               // the seed of random:K
  int pairs_measured = 0;          // unordered pairs the matrix measured (both directions each)
  int retest_rounds = 0;           // rounds of re-tests that ran
  std::vector<Cell> not_retested;  // suspect directions past --tcp-retest-rounds
  int across_leaves = -1;          // pairs between two leaf switches when random:K drew by leaf (--fabric); -1: it did not
};

// "48 of 240 directed pairs measured (random:3, seed 7); ..." (pure), and that sentence, the counts and
// what was not re-tested into the matrix record's extra (coverage, pairs, pairs_seed, directed_pairs_measured,
// directed_pairs, retest_rounds, not_retested, not_retested_note).
std::string coverage_sentence(int directed_measured, int participants, const std::string& pairs, uint64_t seed,
                              int across_leaves = -1);
void add_coverage(report::Record& matrix, const MatrixCoverage& c, double best_bps, double fraction);

// Confirmed slow directions → findings: a host when it is slow with 2+ partners and fine with none
// (3+ participants; `measured`: the matrix's and the re-tests' cells, a re-test after its matrix cell),
// saying when it is slow one way only ("slow sending: ..., flows into it at ..."; `measured`: every
// direction the matrix measured), else the pair; one finding on the network when every node is named.
std::vector<report::Record> findings(const std::vector<Cell>& confirmed, const std::vector<Node>& nodes,
                                     double best_bps, double fraction, const std::vector<Cell>& measured = {});

}  // namespace gpunet::bench::tcp
