#include <algorithm>
#include <map>
#include <thread>

#include "bench/suites/tcp/exchange.hpp"
#include "bench/suites/tcp/json.hpp"
#include "bench/suites/tcp/options.hpp"
#include "bench/suites/tcp/rail_findings.hpp"
#include "bench/suites/tcp/retest_plan.hpp"
#include "bench/suites/tcp/suite_runner.hpp"

namespace gpunet::bench::tcp {

using gpunet::json;
using report::Status;

namespace {

// "host" in a one-rail run, "host:iface" on a rail.
std::string end_label(const Node& n) { return report::end_name(n.host, n.iface); }

// Each rail's interface (as the first participant names it).
std::vector<std::string> rail_names(const Setup& s) {
  std::vector<std::string> out;
  for (const auto& rail : s.rails) out.push_back(rail.nodes.empty() ? "" : rail.nodes[0].iface);
  return out;
}

}  // namespace

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
  const auto window = round_window();
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
  const auto busy = round_busy_windows(window, label);
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
    counters::attach_busy_windows(recs, busy);
    out.push_back(std::move(recs));
  }
  return out;
}

std::vector<std::vector<size_t>> TcpSuite::rail_batches() const {
  std::vector<std::vector<size_t>> out;
  for (size_t r = 0; r < s_.rails.size(); ++r) {
    if (out.empty() || cfg_.rails_one_at_a_time) out.emplace_back();
    out.back().push_back(r);
  }
  return out;
}

std::string TcpSuite::rail_label(size_t rail) const {
  if (!s_.rail_run) return "";
  return ", rail " + std::to_string(rail) + " (" + s_.rails[rail].nodes[0].iface + ")";
}

std::vector<std::vector<RailTest>> TcpSuite::on_every_rail(const BandwidthTest& t) const {
  std::vector<std::vector<RailTest>> out;
  for (const auto& rails : rail_batches()) {
    out.emplace_back();
    for (const size_t r : rails) {
      BandwidthTest on_rail = t;
      on_rail.label += rail_label(r);
      out.back().push_back({r, on_rail});
    }
  }
  return out;
}

void TcpSuite::bandwidth_on_rails(const BandwidthTest& t) {
  for (const auto& batch : on_every_rail(t))
    for (const auto& recs : bandwidth(batch))
      for (const auto& r : recs) ctx_.emit(r);
}

std::vector<Cell> TcpSuite::retest(size_t rail, const RetestPlan& plan, double best) {
  const auto& nodes = s_.rails[rail].nodes;
  // Each round's disjoint pairs at once, the first direction of every pair and then the second: one
  // direction at a time tells a slow sending side from a slow receiving side.
  std::vector<Cell> cells;
  for (size_t i = 0; i < plan.rounds.size(); ++i) {
    const auto& flows = plan.rounds[i];
    std::vector<FlowSpec> first, second;
    for (const auto& f : flows) {
      const bool again = std::any_of(first.begin(), first.end(), [&](const FlowSpec& x) { return x.src == f.dst && x.dst == f.src; });
      (again ? second : first).push_back(f);
    }
    for (const auto& part : {first, second}) {
      if (part.empty()) continue;
      BandwidthTest t;
      t.variant = "retest";
      t.label = "tcp matrix re-test round " + std::to_string(i + 1) + "/" + std::to_string(plan.rounds.size()) + ": " +
                std::to_string(part.size()) + (part.size() == 1 ? " direction" : " directions") + (part.size() == 1 ?
                " " + end_label(nodes[static_cast<size_t>(part[0].src)]) + " -> " + end_label(nodes[static_cast<size_t>(part[0].dst)]) : "");
      t.streams = cfg_.streams;
      t.bidir = std::any_of(part.begin(), part.end(), [&](const FlowSpec& f) {
        return std::find(part.begin(), part.end(), FlowSpec{f.dst, f.src}) != part.end();
      });
      t.flows = part;
      auto recs = bandwidth(std::vector<RailTest>{{rail, t}})[0];
      for (size_t k = 0; k < recs.size() && k < part.size(); ++k) {
        Cell c = cell_of(recs[k], part[k]);
        const std::string why = slow_reason(c, best, cfg_.suspect);
        recs[k].extra["confirmed"] = !why.empty();
        recs[k].extra["why"] = why;
        recs[k].extra["alone"] = part.size() == 1;
        const bool passed_partner = std::find(plan.against_passed.begin(), plan.against_passed.end(), part[k]) != plan.against_passed.end();
        recs[k].extra["partner"] = passed_partner ? "a partner that passed" : "its own";
        ctx_.emit(recs[k]);
        cells.push_back(c);
      }
    }
  }
  return cells;
}

std::vector<std::vector<Cell>> TcpSuite::matrix_cells(const std::vector<Round>& rounds) {
  // Each round's pairs run at the same time, both directions at once (a full-duplex link carries
  // both without sharing), or with --tcp-matrix-direction one-way one direction and then the other
  // (a node then only sends or only receives). Every rail runs the same round
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
      t.bidir = !cfg_.matrix_one_way;
      return t;
    };
    if (!cfg_.matrix_one_way) {
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
      for (const auto& batch : on_every_rail(t)) {
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
  // Rank 0's seed and leaf switches for every rank, so that all draw the same pairs.
  const json drawn = bcast_json(root() ? json{{"seed", cfg_.pairs_seed}, {"groups", partner_groups()}} : json(), ctx_.mpi.world, 0);
  const uint64_t seed = drawn.at("seed").get<uint64_t>();
  const auto groups = drawn.at("groups").get<std::vector<int>>();
  const auto rounds = strategy_rounds(size(), cfg_.pairs, cfg_.pairs_k, seed, groups);
  const int across_leaves = groups.empty() ? -1 : pairs_between_groups(rounds, groups);
  const auto cells = matrix_cells(rounds);
  const size_t rails = s_.rails.size();
  // Rank 0 plans the re-tests of every rail; everyone runs them.
  std::vector<double> best(rails);
  json plans = json::array();
  for (size_t r = 0; r < rails; ++r) {
    best[r] = best_goodput(cells[r]);
    json on_rail = {{"suspects", json::array()}, {"passed", json::array()}};
    if (root() && !s_.run.single_node)
      for (const auto& c : cells[r])
        on_rail[slow_reason(c, best[r], cfg_.suspect).empty() ? "passed" : "suspects"].push_back({c.src, c.dst});
    plans.push_back(on_rail);
  }
  plans = bcast_json(plans, ctx_.mpi.world, 0);
  std::vector<std::vector<report::Record>> per_rail(rails);
  for (size_t r = 0; r < rails; ++r) {
    auto flows = [](const json& list) {
      std::vector<FlowSpec> out;
      for (const auto& f : list) out.push_back({f[0].get<int>(), f[1].get<int>()});
      return out;
    };
    const auto suspect_flows = flows(plans[r]["suspects"]);
    const auto plan = plan_retests(size(), suspect_flows, flows(plans[r]["passed"]), cfg_.retest_rounds);
    const auto retests = retest(r, plan, best[r]);
    if (!root()) continue;
    std::vector<Cell> suspects, confirmed, left_out, measured = cells[r];
    for (const auto& c : cells[r]) {
      if (std::find(suspect_flows.begin(), suspect_flows.end(), FlowSpec{c.src, c.dst}) != suspect_flows.end()) suspects.push_back(c);
      if (std::find(plan.left_out.begin(), plan.left_out.end(), FlowSpec{c.src, c.dst}) != plan.left_out.end()) left_out.push_back(c);
    }
    for (const auto& c : retests)
      if (!slow_reason(c, best[r], cfg_.suspect).empty()) confirmed.push_back(c);
    measured.insert(measured.end(), retests.begin(), retests.end());
    const auto& nodes = s_.rails[r].nodes;
    auto m = matrix_record(cells[r], nodes, static_cast<int>(rounds.size()), suspects, retests, cfg_.suspect);
    add_coverage(m, {pairs_text(cfg_), seed, pair_count(rounds), static_cast<int>(plan.rounds.size()), left_out, across_leaves},
                 best[r], cfg_.suspect);
    if (s_.run.single_node) m.extra["suspects_skipped"] = "all ranks share one node: there are no links to judge";
    ctx_.emit(m);
    per_rail[r] = findings(confirmed, nodes, best[r], cfg_.suspect, measured);
  }
  if (!root()) return;
  for (const auto& f : s_.rail_run ? rail_findings(per_rail, rail_names(s_)) : per_rail[0]) ctx_.emit(f);
}

}  // namespace gpunet::bench::tcp
