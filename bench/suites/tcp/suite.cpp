#include "bench/suites/tcp/suite.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <thread>

#include "bench/core/step_progress.hpp"
#include "bench/suites/tcp/exchange.hpp"
#include "bench/suites/tcp/json.hpp"
#include "bench/suites/tcp/live.hpp"
#include "bench/suites/tcp/plan.hpp"
#include "bench/suites/tcp/rail_findings.hpp"
#include "bench/engines/pair_schedule.hpp"
#include "bench/suites/tcp/setup.hpp"
#include "report/baseline_stats.hpp"
#include "report/stats.hpp"

namespace gpunet::bench::tcp {

using nlohmann::json;
using report::Status;

namespace {

// One test on one rail.
struct RailTest {
  size_t rail = 0;
  BandwidthTest test;
};

// "host" in a one-rail run, "host:iface" on a rail.
std::string end_label(const Node& n) { return report::end_name(n.host, n.iface); }

// Each rail's interface (as the first participant names it).
std::vector<std::string> rail_names(const Setup& s) {
  std::vector<std::string> out;
  for (const auto& rail : s.rails) out.push_back(rail.nodes.empty() ? "" : rail.nodes[0].iface);
  return out;
}

class TcpSuite {
 public:
  TcpSuite(const SuiteContext& ctx, Setup& s) : ctx_(ctx), cfg_(ctx.cfg.tcp), s_(s), steps_(ctx) { plan_progress(); }

  void neighbours();
  void matrix();
  void fan(bool incast);
  void latency();

 private:
  // Runs one bandwidth test on every participant at once; the records, on rank 0 only.
  std::vector<report::Record> bandwidth(const BandwidthTest& t) { return bandwidth(std::vector<RailTest>{{0, t}})[0]; }
  // Runs tests on several rails at once (one thread per rail on each participant); records per test.
  std::vector<std::vector<report::Record>> bandwidth(const std::vector<RailTest>& tests);
  // This participant's share of one test on one rail: what it sent, received and turned away (null: no part).
  json run_part(const RailTest& rt, uint64_t id, bool live);
  // The matrix of every rail: each round on all rails at once, or rail after rail (--rails one-at-a-time).
  std::vector<std::vector<Cell>> matrix_cells(const std::vector<Round>& rounds);
  void latency_round(const Round& round, const std::string& label);
  void emit_skip(const std::string& name, const std::string& why) const;
  BandwidthParams params(int streams) const;
  std::vector<Cell> retest(size_t rail, const std::vector<Cell>& suspects, double best);
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

json TcpSuite::run_part(const RailTest& rt, uint64_t id, bool live) {
  const auto& t = rt.test;
  const auto& rail = s_.rails[rt.rail];
  FlowPlan plan;
  plan.test_id = id;
  plan.self = static_cast<uint32_t>(ctx_.mpi.rank);
  plan.source = rail.source;
  for (const auto& f : t.flows) {
    if (f.src == s_.self) plan.send_to.push_back({static_cast<uint32_t>(rail.nodes[static_cast<size_t>(f.dst)].rank),
                                                  rail.nodes[static_cast<size_t>(f.dst)].endpoint});
    if (f.dst == s_.self) plan.receive_from.push_back(static_cast<uint32_t>(rail.nodes[static_cast<size_t>(f.src)].rank));
  }
  if (plan.send_to.empty() && plan.receive_from.empty()) return nullptr;
  BandwidthParams p = params(t.streams);
  if (live) {
    p.live_interval_s = cfg_.live_interval_s;
    p.on_interval = live_intervals(t);
  }
  const auto o = run_bandwidth(*rail.listener, s_.key, plan, p);
  return {{"sent", o.sent}, {"received", o.received}, {"rejected", o.rejected}};
}

std::vector<std::vector<report::Record>> TcpSuite::bandwidth(const std::vector<RailTest>& tests) {
  const std::string label = tests[0].test.label + (tests.size() > 1 ? ", " + std::to_string(tests.size()) + " rails at once" : "");
  steps_.start_planned(label, bandwidth_s());
  Step step(ctx_.control, label);
  const uint64_t first_id = next_test_;
  next_test_ += tests.size();
  // Live lines only for one test at a time: the control plane takes them from one thread.
  const bool live = cfg_.live_lines && tests.size() == 1;
  if (live && root()) ctx_.control.live("# " + label + "\n" + interval_header());
  MPI_Barrier(ctx_.mpi.world);
  const double started_s = since_start();
  json mine = json::array();
  if (s_.self >= 0) {
    std::vector<json> parts(tests.size());
    std::vector<std::thread> threads;
    for (size_t k = 1; k < tests.size(); ++k)
      threads.emplace_back([&, k] { parts[k] = run_part(tests[k], first_id + k, false); });
    parts[0] = run_part(tests[0], first_id, live);
    for (auto& th : threads) th.join();
    for (auto& part : parts) mine.push_back(std::move(part));
  }
  const auto all = gather_json(mine, ctx_.mpi.world, 0);
  if (!root()) return std::vector<std::vector<report::Record>>(tests.size());
  std::vector<std::vector<report::Record>> out;
  for (size_t k = 0; k < tests.size(); ++k) {
    const auto& nodes = s_.rails[tests[k].rail].nodes;
    TestResults res;
    res.sent.resize(nodes.size());
    res.received.resize(nodes.size());
    res.rejected.resize(nodes.size());
    for (size_t r = 0; r < all.size(); ++r) {
      const int p = s_.participant_of(static_cast<int>(r));
      if (p < 0 || !all[r].is_array() || all[r].size() <= k || all[r][k].is_null()) continue;
      const json& part = all[r][k];
      res.sent[static_cast<size_t>(p)] = part.at("sent").get<std::vector<SendResult>>();
      res.received[static_cast<size_t>(p)] = part.at("received").get<std::vector<ReceiveResult>>();
      res.rejected[static_cast<size_t>(p)] = part.at("rejected").get<Rejections>();
    }
    auto recs = bandwidth_records(tests[k].test, res, nodes, cfg_, s_.run);
    for (auto& r : recs) r.extra["started_s"] = started_s;
    out.push_back(std::move(recs));
  }
  return out;
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
      for (const auto& r : bandwidth(t)) ctx_.emit(r);
    }
  }
}

std::vector<Cell> TcpSuite::retest(size_t rail, const std::vector<Cell>& suspects, double best) {
  const auto& nodes = s_.rails[rail].nodes;
  // Each suspect direction is re-tested alone (with --tcp-bidir, a pair's suspect directions at once).
  std::map<std::pair<int, int>, std::vector<FlowSpec>> by_pair;
  for (const auto& c : suspects) by_pair[{std::min(c.src, c.dst), std::max(c.src, c.dst)}].push_back({c.src, c.dst});
  std::vector<Cell> cells;
  for (const auto& [pair, flows] : by_pair) {
    std::vector<std::vector<FlowSpec>> parts;
    if (cfg_.bidir)
      parts.push_back(flows);
    else
      for (const auto& f : flows) parts.push_back({f});
    for (const auto& part : parts) {
      BandwidthTest t;
      t.variant = "retest";
      t.label = "tcp matrix re-test " + end_label(nodes[static_cast<size_t>(part[0].src)]) +
                (part.size() == 2 ? " <-> " : " -> ") + end_label(nodes[static_cast<size_t>(part[0].dst)]);
      t.streams = cfg_.streams;
      t.bidir = part.size() == 2;
      t.flows = part;
      auto recs = bandwidth(std::vector<RailTest>{{rail, t}})[0];
      for (size_t k = 0; k < recs.size() && k < part.size(); ++k) {
        Cell c = cell_of(recs[k], part[k]);
        const std::string why = slow_reason(c, best, cfg_.suspect);
        recs[k].extra["confirmed"] = !why.empty();
        recs[k].extra["why"] = why;
        recs[k].extra["alone"] = true;
        ctx_.emit(recs[k]);
        cells.push_back(c);
      }
    }
  }
  return cells;
}

std::vector<std::vector<Cell>> TcpSuite::matrix_cells(const std::vector<Round>& rounds) {
  // Each round's pairs run at the same time: both directions at once with --tcp-bidir, else one
  // direction and then the other (a node then only sends or only receives, which measures each
  // direction without the other's load on the same CPUs and queues). Every rail runs the same round
  // at once, unless --rails one-at-a-time.
  const size_t rails = s_.rails.size();
  std::vector<std::vector<Cell>> cells(rails);
  for (size_t i = 0; i < rounds.size(); ++i) {
    const std::string round = "tcp matrix round " + std::to_string(i + 1) + "/" + std::to_string(rounds.size());
    std::vector<BandwidthTest> tests;
    auto test = [&](const std::string& label) {
      BandwidthTest t;
      t.variant = "matrix";
      t.label = label;
      t.streams = cfg_.streams;
      t.bidir = cfg_.bidir;
      return t;
    };
    if (cfg_.bidir) {
      tests.push_back(test(round));
      for (const auto& p : rounds[i]) tests[0].flows.insert(tests[0].flows.end(), {{p.a, p.b}, {p.b, p.a}});
    } else {
      tests.push_back(test(round + ", forward"));
      tests.push_back(test(round + ", reverse"));
      for (const auto& p : rounds[i]) {
        tests[0].flows.push_back({p.a, p.b});
        tests[1].flows.push_back({p.b, p.a});
      }
    }
    for (const auto& t : tests) {
      std::vector<std::vector<RailTest>> batches;  // what runs at once
      for (size_t r = 0; r < rails; ++r) {
        BandwidthTest on_rail = t;
        if (s_.rail_run) on_rail.label += ", rail " + std::to_string(r) + " (" + s_.rails[r].nodes[0].iface + ")";
        if (batches.empty() || cfg_.rails_one_at_a_time) batches.emplace_back();
        batches.back().push_back({r, on_rail});
      }
      for (const auto& batch : batches) {
        const auto recs = bandwidth(batch);
        for (size_t b = 0; b < batch.size(); ++b)
          for (size_t k = 0; k < recs[b].size(); ++k) {
            cells[batch[b].rail].push_back(cell_of(recs[b][k], t.flows[k]));
            ctx_.emit(recs[b][k]);
          }
      }
    }
  }
  return cells;
}

void TcpSuite::matrix() {
  const auto rounds = all_pairs_rounds(size());
  const auto cells = matrix_cells(rounds);
  const size_t rails = s_.rails.size();
  // Rank 0 names the suspects of every rail; everyone re-tests them, one at a time.
  std::vector<double> best(rails);
  json names = json::array();
  for (size_t r = 0; r < rails; ++r) {
    best[r] = best_goodput(cells[r]);
    json on_rail = json::array();
    if (root() && !s_.run.single_node)
      for (const auto& c : cells[r])
        if (!slow_reason(c, best[r], cfg_.suspect).empty()) on_rail.push_back({c.src, c.dst, c.goodput_bps});
    names.push_back(on_rail);
  }
  names = bcast_json(names, ctx_.mpi.world, 0);
  std::vector<std::vector<report::Record>> per_rail(rails);
  for (size_t r = 0; r < rails; ++r) {
    std::vector<Cell> suspects;
    for (const auto& n : names[r]) suspects.push_back({n[0].get<int>(), n[1].get<int>(), n[2].get<double>(), std::nullopt, Status::passed});
    if (root())  // keep the ceilings the matrix knew
      for (auto& sc : suspects)
        for (const auto& c : cells[r])
          if (c.src == sc.src && c.dst == sc.dst) sc = c;
    const auto retests = retest(r, suspects, best[r]);
    if (!root()) continue;
    std::vector<Cell> confirmed;
    for (const auto& c : retests)
      if (!slow_reason(c, best[r], cfg_.suspect).empty()) confirmed.push_back(c);
    const auto& nodes = s_.rails[r].nodes;
    auto m = matrix_record(cells[r], nodes, static_cast<int>(rounds.size()), suspects, retests, cfg_.suspect);
    if (s_.run.single_node) m.extra["suspects_skipped"] = "all ranks share one node: there are no links to judge";
    ctx_.emit(m);
    per_rail[r] = findings(confirmed, nodes, best[r], cfg_.suspect, cells[r]);
  }
  if (!root()) return;
  for (const auto& f : s_.rail_run ? rail_findings(per_rail, rail_names(s_)) : per_rail[0]) ctx_.emit(f);
}

void TcpSuite::fan(bool incast) {
  const std::string variant = incast ? "many-to-one" : "one-to-many";
  if (size() < 3) return emit_skip("bandwidth", variant + " needs 3 or more participants (nodes, or ranks on one node)");
  BandwidthTest t;
  t.variant = variant;
  t.label = "tcp " + variant;
  t.streams = cfg_.streams;
  for (int i = 1; i < size(); ++i) t.flows.push_back(incast ? FlowSpec{i, 0} : FlowSpec{0, i});
  for (const auto& r : bandwidth(t)) ctx_.emit(r);
}

void TcpSuite::latency_round(const Round& round, const std::string& label) {
  steps_.start_planned(label, cfg_.lat_time_s + 0.2);
  Step step(ctx_.control, label);
  const uint64_t id = next_test_++;
  MPI_Barrier(ctx_.mpi.world);
  const double started_s = since_start();
  LatencyParams lp;
  lp.msg_bytes = cfg_.lat_bytes;
  lp.duration_s = cfg_.lat_time_s;
  lp.connect_timeout_s = cfg_.timeout_s;
  lp.io_timeout_s = cfg_.timeout_s;
  json mine = nullptr;
  for (const auto& p : round) {
    const PingPong who{id, static_cast<uint32_t>(s_.nodes()[static_cast<size_t>(p.a)].rank),
                       static_cast<uint32_t>(s_.nodes()[static_cast<size_t>(p.b)].rank)};
    if (p.a == s_.self) {
      const auto r = run_latency_client(s_.nodes()[static_cast<size_t>(p.b)].endpoint, s_.rails[0].source, s_.key, who, lp);
      std::vector<double> half;
      half.reserve(r.rtt_us.size());
      for (double x : r.rtt_us) half.push_back(x / 2);
      mine = {{"status", report::to_string(r.status)}, {"reason", r.reason},
              {"summary", summarize_latency(half)},    {"time_us", report::compute_stats(half)},
              {"rtt_p50_us", report::percentile(r.rtt_us, 0.5)}, {"tcp_info", r.tcp_info},
              {"samples_us", report::quantile_summary(half, kLatencySamples)}};
    } else if (p.b == s_.self) {
      const auto e = run_latency_server(*s_.rails[0].listener, s_.key, who, lp);
      mine = {{"status", report::to_string(e.status)}, {"reason", e.reason}, {"rejected", e.rejected}};
    }
  }
  const auto all = gather_json(mine, ctx_.mpi.world, 0);
  if (!root()) return;
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
    auto rec = latency_record({p.a, p.b}, o, s_.nodes(), cfg_, s_.run);
    rec.extra["started_s"] = started_s;
    ctx_.emit(rec);
  }
}

void TcpSuite::latency() {
  const auto rounds = disjoint_rounds(neighbour_pairs(size()));
  for (size_t i = 0; i < rounds.size(); ++i)
    latency_round(rounds[i], "tcp latency round " + std::to_string(i + 1) + "/" + std::to_string(rounds.size()));
}

}  // namespace

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
  }
}

}  // namespace gpunet::bench::tcp
