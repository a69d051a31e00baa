#include "bench/suites/tcp/plan.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "bench/engines/pair_schedule.hpp"
#include "bench/suites/tcp/options.hpp"

namespace gpunet::bench::tcp {

namespace {
constexpr double kSetup_s = 0.2;  // per round: connect, barrier, records (0.06-0.15 s measured, issue 29)
}

int tcp_participants(int nodes, int ranks) { return nodes > 1 ? nodes : ranks; }

std::vector<Round> latency_rounds(bool every_pair, int n) {
  return every_pair ? all_pairs_rounds(n) : disjoint_rounds(neighbour_pairs(n));
}

TcpSteps tcp_steps(const TcpConfig& cfg, int n) {
  TcpSteps s;
  const int neighbour_rounds = static_cast<int>(disjoint_rounds(neighbour_pairs(n)).size());
  // Rails run each round at once; one at a time, each rail its own rounds ("rails" counts as one).
  // Fabric and congestion run on the first rail only.
  const int rail_turns = cfg.rails_one_at_a_time ? std::max<int>(1, static_cast<int>(cfg.ifaces.size())) : 1;
  for (const auto& test : cfg.tests) {
    if (test == "neighbours") s.bandwidth += neighbour_rounds * (cfg.streams > 1 ? 2 : 1) * rail_turns;
    if (test == "matrix")
      s.bandwidth += static_cast<int>(strategy_rounds(n, cfg.pairs, cfg.pairs_k, cfg.pairs_seed).size()) * (cfg.matrix_one_way ? 2 : 1) * rail_turns;
    if ((test == "one-to-many" || test == "many-to-one") && n >= 3) s.bandwidth += rail_turns;
    if (test == "latency") s.latency += static_cast<int>(latency_rounds(cfg.latency_every_pair, n).size()) * rail_turns;
    if (test == "congestion" && n >= 4) {  // latency alone and under load, bandwidth alone and under load
      s.bandwidth += 3;
      s.latency += 1;
    }
  }
  return s;
}

double tcp_bandwidth_step_s(const TcpConfig& cfg) { return cfg.time_s + kSetup_s; }
double tcp_latency_step_s(const TcpConfig& cfg) { return cfg.lat_time_s + kSetup_s; }

PlanPart tcp_plan(const Config& cfg, int nodes, int ranks) {
  const int n = tcp_participants(nodes, ranks);
  const TcpSteps s = tcp_steps(cfg.tcp, n);
  PlanPart p;
  if (cfg.tcp.duration_s > 0 || cfg.tcp.bytes > 0) {
    p.left_out = cfg.tcp.duration_s > 0 ? "(--duration)" : "(flows sized by --tcp-bytes)";
    return p;  // not estimated
  }
  const auto sec = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%gs", v);
    return std::string(buf);
  };
  p.what = std::to_string(n) + " participants: " + std::to_string(s.bandwidth) + " bandwidth rounds x (" + sec(cfg.tcp.time_s) +
           " + 0.2s) + " + std::to_string(s.latency) + " latency rounds x (" + sec(cfg.tcp.lat_time_s) + " + 0.2s)";
  p.seconds = s.bandwidth * tcp_bandwidth_step_s(cfg.tcp) + s.latency * tcp_latency_step_s(cfg.tcp);
  const bool latency = std::find(cfg.tcp.tests.begin(), cfg.tcp.tests.end(), "latency") != cfg.tcp.tests.end();
  if (latency && cfg.tcp.latency_every_pair) p.what += ", latency on every pair (the spec promises it for every pair)";
  const bool matrix = std::find(cfg.tcp.tests.begin(), cfg.tcp.tests.end(), "matrix") != cfg.tcp.tests.end();
  if (matrix) {
    if (cfg.tcp.pairs != "all")
      p.what += ", matrix pairs " + pairs_text(cfg.tcp) +
                (cfg.tcp.pairs == "random" ? " seed " + std::to_string(cfg.tcp.pairs_seed) : "") +
                (cfg.tcp.pairs == "random" && !cfg.fabric_path.empty() ? " across and within leaf switches" : "");
    p.left_out = "re-tests of matrix suspects (at most " + std::to_string(cfg.tcp.retest_rounds) + " rounds)";
    // Each re-test round one direction and then the other, rail after rail.
    const int rails = std::max<int>(1, static_cast<int>(cfg.tcp.ifaces.size()));
    p.most_left_out_s = cfg.tcp.retest_rounds * 2 * rails * tcp_bandwidth_step_s(cfg.tcp);
  }
  if (std::find(cfg.tcp.tests.begin(), cfg.tcp.tests.end(), "fabric") != cfg.tcp.tests.end())
    p.left_out += std::string(p.left_out.empty() ? "" : ", ") + "the fabric test (one round per leaf)";
  return p;
}

}  // namespace gpunet::bench::tcp
