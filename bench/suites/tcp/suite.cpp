#include "bench/suites/tcp/suite.hpp"

#include <map>
#include <memory>
#include <thread>

#include "bench/core/counters/window_load.hpp"
#include "bench/suites/tcp/exchange.hpp"
#include "bench/suites/tcp/json.hpp"
#include "bench/suites/tcp/live.hpp"
#include "bench/suites/tcp/suite_runner.hpp"
#include "report/judge/baseline_stats.hpp"
#include "report/model/stats.hpp"

namespace gpunet::bench::tcp {

using gpunet::json;
using report::Status;

void TcpSuite::plan_progress() {
  const TcpSteps s = tcp_steps(cfg_, size());
  steps_.plan(s.bandwidth, bandwidth_s());
  steps_.plan(s.latency, tcp_latency_step_s(cfg_));
}

std::function<void(const IntervalReport&)> TcpSuite::live_intervals(const BandwidthTest& t) const {
  if (!cfg_.live_lines || s_.self < 0) return nullptr;
  std::map<uint32_t, std::string> labels;  // receiver rank -> flow label
  for (const auto& f : t.flows) {
    if (f.src != s_.self) continue;
    const Node& src = s_.nodes()[static_cast<size_t>(f.src)];
    const Node& dst = s_.nodes()[static_cast<size_t>(f.dst)];
    labels[static_cast<uint32_t>(dst.rank)] = flow_label(src.host, src.rank, dst.host, dst.rank);
  }
  if (labels.empty()) return nullptr;
  auto dips = std::make_shared<std::map<uint32_t, LiveDips>>();
  ControlPlane& control = ctx_.control;
  const double dip = cfg_.dip;
  return [labels, dips, &control, dip](const IntervalReport& r) {
    const auto it = labels.find(r.peer);
    if (it == labels.end()) return;
    auto& d = dips->try_emplace(r.peer, dip).first->second;
    const double len = r.end_s - r.start_s;
    const bool is_dip = len > 0 && d.add(static_cast<double>(r.bytes) * 8 / len / 1e9);
    control.live(interval_line(it->second, r, is_dip));
  };
}

BandwidthParams TcpSuite::params(int streams) const {
  BandwidthParams p;
  p.streams = streams;
  p.duration_s = cfg_.time_s;
  p.bytes = cfg_.bytes;
  p.msg_bytes = cfg_.msg_bytes;
  p.sock.sndbuf = static_cast<int>(cfg_.sndbuf);
  p.sock.rcvbuf = static_cast<int>(cfg_.rcvbuf);
  p.interval_s = cfg_.interval_s;
  p.connect_timeout_s = cfg_.timeout_s;
  p.io_timeout_s = cfg_.timeout_s;
  return p;
}

void TcpSuite::emit_skip(const std::string& name, const std::string& why) const {
  if (!root()) return;
  auto rec = ctx_.record("tcp", name);
  rec.status = Status::skipped;
  rec.reason = why;
  ctx_.emit(rec);
}

void TcpSuite::neighbours() {
  const auto rounds = disjoint_rounds(neighbour_pairs(size()));
  std::vector<int> stream_counts{1};
  if (cfg_.streams > 1) stream_counts.push_back(cfg_.streams);
  for (const int streams : stream_counts) {
    for (size_t i = 0; i < rounds.size(); ++i) {
      BandwidthTest t;
      t.variant = "neighbours";
      t.label = "tcp neighbours round " + std::to_string(i + 1) + "/" + std::to_string(rounds.size()) + ", " +
                std::to_string(streams) + " stream(s)";
      t.streams = streams;
      t.bidir = cfg_.bidir;
      for (const auto& p : rounds[i]) {
        t.flows.push_back({p.a, p.b});
        if (cfg_.bidir) t.flows.push_back({p.b, p.a});
      }
      bandwidth_on_rails(t);
    }
  }
}

void TcpSuite::fan(bool incast) {
  const std::string variant = incast ? "many-to-one" : "one-to-many";
  if (size() < 3) return emit_skip("bandwidth", variant + " needs 3 or more participants (nodes, or ranks on one node)");
  BandwidthTest t;
  t.variant = variant;
  t.label = "tcp " + variant;
  t.streams = cfg_.streams;
  for (int i = 1; i < size(); ++i) t.flows.push_back(incast ? FlowSpec{i, 0} : FlowSpec{0, i});
  bandwidth_on_rails(t);
}

LatencyParams TcpSuite::latency_params() const {
  LatencyParams lp;
  lp.msg_bytes = cfg_.lat_bytes;
  lp.duration_s = cfg_.lat_time_s;
  lp.connect_timeout_s = cfg_.timeout_s;
  lp.io_timeout_s = cfg_.timeout_s;
  return lp;
}

json TcpSuite::latency_part(const Round& round, uint64_t id, const LatencyParams& lp, size_t rail) {
  const RailEnds& ends = s_.rails[rail];
  json mine = nullptr;
  for (const auto& p : round) {
    const PingPong who{id, static_cast<uint32_t>(s_.nodes()[static_cast<size_t>(p.a)].rank),
                       static_cast<uint32_t>(s_.nodes()[static_cast<size_t>(p.b)].rank)};
    if (p.a == s_.self) {
      const auto r = run_latency_client(ends.nodes[static_cast<size_t>(p.b)].endpoint, ends.source, s_.key, who, lp);
      std::vector<double> half;
      half.reserve(r.rtt_us.size());
      for (double x : r.rtt_us) half.push_back(x / 2);
      mine = {{"status", report::to_string(r.status)}, {"reason", r.reason},
              {"summary", summarize_latency(half)},    {"time_us", report::compute_stats(half)},
              {"rtt_p50_us", report::percentile(r.rtt_us, 0.5)}, {"tcp_info", r.tcp_info},
              {"samples_us", report::quantile_summary(half, kLatencySamples)}};
    } else if (p.b == s_.self) {
      const auto e = run_latency_server(*ends.listener, s_.key, who, lp);
      mine = {{"status", report::to_string(e.status)}, {"reason", e.reason}, {"rejected", e.rejected}};
    }
  }
  return mine;
}

std::vector<LatencyOutcome> TcpSuite::latency_outcomes(const json& all, const Round& round) const {
  std::vector<LatencyOutcome> out;
  for (const auto& p : round) {
    const json& c = all[static_cast<size_t>(s_.nodes()[static_cast<size_t>(p.a)].rank)];
    const json& sv = all[static_cast<size_t>(s_.nodes()[static_cast<size_t>(p.b)].rank)];
    LatencyOutcome o;
    o.status = report::status_from_string(c.at("status").get<std::string>());
    o.reason = c.at("reason").get<std::string>();
    o.half_rtt_us = c.at("summary").get<LatencySummary>();
    o.time_us = c.at("time_us").get<report::TimeStats>();
    o.rtt_p50_us = c.at("rtt_p50_us").get<double>();
    o.samples_us = c.at("samples_us").get<std::vector<double>>();
    o.tcp_info = c.at("tcp_info").get<net::TcpInfo>();
    o.rejected = sv.at("rejected").get<Rejections>();
    const auto server_status = report::status_from_string(sv.at("status").get<std::string>());
    if (o.status == Status::passed && server_status != Status::passed) {
      o.status = server_status;
      o.reason = "server " + s_.nodes()[static_cast<size_t>(p.b)].host + ": " + sv.at("reason").get<std::string>();
    }
    out.push_back(std::move(o));
  }
  return out;
}

void TcpSuite::latency_round(const Round& round, const std::string& label) {
  const LatencyParams lp = latency_params();
  for (const auto& rails : rail_batches()) {
    const std::string step_label = label + (rails.size() == 1 ? rail_label(rails[0]) :
                                            ", " + std::to_string(rails.size()) + " rails at once");
    steps_.start_planned(step_label, cfg_.lat_time_s + 0.2);
    Step step(ctx_.control, step_label);
    const uint64_t first_id = next_test_;
    next_test_ += rails.size();
    MPI_Barrier(ctx_.mpi.world);
    const double started_s = since_start();
    const auto window = round_window();
    std::vector<json> parts(rails.size());
    std::vector<std::thread> threads;
    for (size_t k = 1; k < rails.size(); ++k)
      threads.emplace_back([&, k] { parts[k] = latency_part(round, first_id + k, lp, rails[k]); });
    parts[0] = latency_part(round, first_id, lp, rails[0]);
    for (auto& th : threads) th.join();
    const auto busy = round_busy_windows(window, step_label);
    const auto all = gather_json(json(parts), ctx_.mpi.world, 0);
    if (!root()) continue;
    for (size_t k = 0; k < rails.size(); ++k) {
      json on_rail = json::array();  // each rank's part on this rail
      for (const auto& mine : all) on_rail.push_back(mine.is_array() && mine.size() > k ? mine[k] : json(nullptr));
      const auto outcomes = latency_outcomes(on_rail, round);
      std::vector<report::Record> recs;
      for (size_t i = 0; i < round.size(); ++i) {
        recs.push_back(latency_record({round[i].a, round[i].b}, outcomes[i], s_.nodes(rails[k]), cfg_, s_.run));
        recs.back().extra["started_s"] = started_s;
      }
      counters::attach_busy_windows(recs, busy);
      for (const auto& rec : recs) ctx_.emit(rec);
    }
  }
}

std::optional<counters::WindowLoad> TcpSuite::round_window() const {
  if (s_.self < 0) return std::nullopt;  // a rank that only watches reads nothing
  return counters::WindowLoad("/proc", ctx_.cfg.host_busy_pct);
}

std::map<std::string, json> TcpSuite::round_busy_windows(const std::optional<counters::WindowLoad>& window,
                                                         const std::string& what) const {
  const json mine = window ? window->finish(s_.nodes()[static_cast<size_t>(s_.self)].host, what) : json(nullptr);
  const auto all = gather_json(mine, ctx_.mpi.world, 0);
  return root() ? counters::busy_windows(all) : std::map<std::string, json>{};
}

void TcpSuite::latency() {
  // Rank 0 read the spec (the file may be on its node only): its answer decides for every rank.
  const bool every_pair = bcast_json(json(cfg_.latency_every_pair), ctx_.mpi.world, 0).get<bool>();
  const auto rounds = latency_rounds(every_pair, size());
  for (size_t i = 0; i < rounds.size(); ++i)
    latency_round(rounds[i], "tcp latency round " + std::to_string(i + 1) + "/" + std::to_string(rounds.size()));
}

void run_tcp_suite(const SuiteContext& ctx) {
  Setup s;
  {
    Step step(ctx.control, "tcp setup");
    s = make_setup(ctx);
  }
  if (!s.stop_reason.empty()) {
    if (ctx.mpi.is_root()) {
      auto rec = ctx.record("tcp", "setup");
      rec.status = s.stop_status;
      rec.reason = s.stop_reason;
      ctx.emit(rec);
    }
    return;
  }
  TcpSuite suite(ctx, s);
  for (const auto& test : ctx.cfg.tcp.tests) {
    if (test == "neighbours") suite.neighbours();
    else if (test == "matrix") suite.matrix();
    else if (test == "one-to-many") suite.fan(false);
    else if (test == "many-to-one") suite.fan(true);
    else if (test == "latency") suite.latency();
    else if (test == "fabric") suite.fabric();
    else if (test == "congestion") suite.congestion();
  }
}

}  // namespace gpunet::bench::tcp
