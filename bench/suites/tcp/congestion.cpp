// The congestion test (GPCNeT's congestion impact with this suite's flows): the victim pairs'
// latency (ping-pong) and goodput alone, then the same while every other participant runs incast and
// all-to-all flows. Four steps: latency alone, bandwidth alone, latency beside the congestors' flows,
// bandwidth in one test with them. Roles: bench/suites/tcp/congestion_plan.hpp; records:
// congestion_records.hpp.
#include <algorithm>
#include <chrono>
#include <thread>

#include "bench/suites/tcp/congestion_plan.hpp"
#include "bench/suites/tcp/congestion_records.hpp"
#include "bench/suites/tcp/exchange.hpp"
#include "bench/suites/tcp/suite_runner.hpp"
#include "topology/fabric.hpp"

namespace gpunet::bench::tcp {

using gpunet::json;
using report::Status;

namespace {

// How long the victims' ping-pong waits after the congestors' flows start, so that it meets full load;
// the congested ping-pong is sized to end this long before the flows do.
double congestor_lead_s(double flow_time_s) { return std::min(0.25, 0.2 * flow_time_s); }

BandwidthTest congestion_test(const std::string& label, std::vector<FlowSpec> flows, int streams) {
  BandwidthTest t;
  t.variant = "congestion";
  t.label = label;
  t.flows = std::move(flows);
  t.streams = streams;
  return t;
}

MeasuredPair latency_pair(const LatencyOutcome& alone, const LatencyOutcome& congested, bool p99) {
  MeasuredPair m;
  m.isolated = p99 ? alone.half_rtt_us.p99 : alone.half_rtt_us.p50;
  m.congested = p99 ? congested.half_rtt_us.p99 : congested.half_rtt_us.p50;
  if (alone.status != Status::passed) m = {0, 0, alone.status, "alone: " + alone.reason};
  else if (congested.status != Status::passed) m = {0, 0, congested.status, "congested: " + congested.reason};
  return m;
}

MeasuredPair bandwidth_pair(const report::Record* alone, const report::Record* congested) {
  const auto rate = [](const report::Record* r) { return r && r->figure ? r->figure->value : 0.0; };
  MeasuredPair m{rate(alone), rate(congested), Status::passed, ""};
  if (!alone || alone->status != Status::passed)
    m = {0, 0, alone ? alone->status : Status::failed, "alone: " + (alone ? alone->reason : std::string("no record"))};
  else if (!congested || congested->status != Status::passed)
    m = {0, 0, congested ? congested->status : Status::failed,
         "congested: " + (congested ? congested->reason : std::string("no record"))};
  return m;
}

}  // namespace

std::vector<LatencyOutcome> TcpSuite::congestion_latency(const Round& victims, const BandwidthTest* congestors,
                                                         const std::string& label, const LatencyParams& lp) {
  steps_.start_planned(label, std::max(lp.duration_s, congestors ? cfg_.time_s : 0.0) + 0.2);
  Step step(ctx_.control, label);
  const uint64_t id = next_test_++;
  const uint64_t flows_id = congestors ? next_test_++ : 0;
  // The congestors' flows start first; the clients wait this long, so their ping-pong meets full load.
  const double lead_s = congestors ? congestor_lead_s(cfg_.time_s) : 0.0;
  MPI_Barrier(ctx_.mpi.world);
  json mine = nullptr;
  if (s_.self >= 0) {
    std::thread flows;
    if (congestors) flows = std::thread([&] { run_part({0, *congestors}, flows_id, false); });
    const bool client = std::any_of(victims.begin(), victims.end(), [&](const Pair& p) { return p.a == s_.self; });
    if (client && lead_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(lead_s));
    mine = latency_part(victims, id, lp);
    if (flows.joinable()) flows.join();
  }
  const auto all = gather_json(mine, ctx_.mpi.world, 0);
  if (!root()) return {};
  return latency_outcomes(all, victims);
}

void TcpSuite::congestion() {
  std::vector<int> racks;
  if (!ctx_.cfg.fabric_path.empty()) {  // the root knows the fabric; every rank plans with the same racks
    json r = json::array();
    if (root() && ctx_.fabric) r = topo::leaf_of_hosts(*ctx_.fabric, node_hosts());
    racks = bcast_json(r, ctx_.mpi.world, 0).get<std::vector<int>>();
  }
  const auto plan = congestion_plan(size(), racks);
  if (!plan.why_not.empty()) return emit_skip("congestion", plan.why_not);
  // The victim's receiver is the ping-pong's client: it connects out and never accepts, so its
  // listener serves only the incast flows it receives at the same time.
  Round pingpong;
  for (const auto& v : plan.victims) pingpong.push_back({v.dst, v.src});
  LatencyParams lp = latency_params();
  // Alone and congested alike: the congested ping-pong must end inside the congestors' --tcp-time.
  lp.duration_s = std::max(0.01, std::min(cfg_.lat_time_s, cfg_.time_s - 2 * congestor_lead_s(cfg_.time_s)));
  const auto load_flows = congestor_flows(plan);
  const BandwidthTest load = congestion_test("tcp congestion: congestors", load_flows, cfg_.streams);
  std::vector<FlowSpec> together = plan.victims;
  together.insert(together.end(), load_flows.begin(), load_flows.end());

  const auto lat_alone = congestion_latency(pingpong, nullptr, "tcp congestion: victims' latency alone", lp);
  const auto bw_alone = bandwidth(congestion_test("tcp congestion: victims' bandwidth alone", plan.victims, cfg_.streams));
  const auto lat_congested = congestion_latency(pingpong, &load, "tcp congestion: victims' latency under load", lp);
  const auto bw_congested = bandwidth(congestion_test("tcp congestion: victims' bandwidth under load", together, cfg_.streams));
  if (!root()) return;

  CongestionLoad facts;
  facts.congestors = static_cast<int>(plan.congestors.size());
  facts.incast_flows = static_cast<int>(plan.incast.size());
  facts.all_to_all_flows = static_cast<int>(plan.all_to_all.size());
  for (size_t k = plan.victims.size(); k < bw_congested.size() && k < together.size(); ++k)
    if (bw_congested[k].status != Status::passed) ++facts.failed_flows;
  facts.time_s = cfg_.time_s;
  facts.latency_s = lp.duration_s;
  std::vector<VictimFigures> victims;
  for (size_t i = 0; i < plan.victims.size(); ++i) {
    VictimFigures v;
    v.victim = plan.victims[i];
    if (i < lat_alone.size() && i < lat_congested.size()) {
      v.measures["latency_p50"] = latency_pair(lat_alone[i], lat_congested[i], false);
      v.measures["latency_p99"] = latency_pair(lat_alone[i], lat_congested[i], true);
    }
    v.measures["bandwidth"] = bandwidth_pair(i < bw_alone.size() ? &bw_alone[i] : nullptr,
                                             i < bw_congested.size() ? &bw_congested[i] : nullptr);
    victims.push_back(std::move(v));
  }
  const double started_s = since_start();
  for (auto& r : congestion_records(victims, s_.nodes(), facts)) {
    r.extra["started_s"] = started_s;
    ctx_.emit(r);
  }
}

}  // namespace gpunet::bench::tcp
