#include "bench/suites/tcp/records.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "bench/suites/tcp/json.hpp"
#include "report/analysis/analysis.hpp"
#include "report/analysis/direction.hpp"
#include "report/analysis/path_ceilings.hpp"
#include "report/judge/figure_select.hpp"
#include "report/model/stats.hpp"

namespace gpunet::bench::tcp {

using gpunet::json;
using report::Status;

namespace {

int distinct_participants(const BandwidthTest& test) {
  std::set<int> s;
  for (const auto& f : test.flows) {
    s.insert(f.src);
    s.insert(f.dst);
  }
  return static_cast<int>(s.size());
}

const ReceiveResult* find_received(const TestResults& r, const FlowSpec& f, const std::vector<Node>& nodes) {
  if (static_cast<size_t>(f.dst) >= r.received.size()) return nullptr;
  for (const auto& x : r.received[static_cast<size_t>(f.dst)])
    if (x.peer == static_cast<uint32_t>(nodes[static_cast<size_t>(f.src)].rank)) return &x;
  return nullptr;
}

const SendResult* find_sent(const TestResults& r, const FlowSpec& f, const std::vector<Node>& nodes) {
  if (static_cast<size_t>(f.src) >= r.sent.size()) return nullptr;
  for (const auto& x : r.sent[static_cast<size_t>(f.src)])
    if (x.peer == static_cast<uint32_t>(nodes[static_cast<size_t>(f.dst)].rank)) return &x;
  return nullptr;
}

// Fields every pair record carries: both endpoints by host, the path and the links.
void describe_pair(report::Record& rec, const Node& src, const Node& dst, const RunFacts& run) {
  rec.host = dst.host;
  rec.rank = dst.rank;
  rec.extra["src_host"] = src.host;
  rec.extra["dst_host"] = dst.host;
  rec.extra["src_rank"] = src.rank;
  rec.extra["dst_rank"] = dst.rank;
  rec.extra["src_addr"] = src.endpoint.ip.to_string();
  rec.extra["dst_addr"] = dst.endpoint.to_string();
  rec.extra["path"] = run.single_node ? "loopback: all ranks share one node, pairs of ranks test over loopback"
                                      : "network";
  rec.extra["link"] = link_json(src.link);
  rec.extra["dst_link"] = link_json(dst.link);
  if (src.rail >= 0) {
    rec.extra["rail"] = src.rail;
    rec.extra["src_iface"] = src.iface;
    rec.extra["dst_iface"] = dst.iface;
  }
}

// The pair's subject: by host and rank, and on a rail by each end's interface too.
report::Subject flow_subject(const Node& src, const Node& dst) {
  if (src.rail < 0) return report::pair_subject(src.host, src.rank, dst.host, dst.rank);
  return report::rail_pair_subject(src.host, src.rank, src.iface, dst.host, dst.rank, dst.iface);
}

report::Figure flow_figure(const BandwidthTest& test, const FlowSpec& flow, const std::vector<bool>& ran, const Node& src,
                           const Node& dst, double goodput_Gbps, std::vector<double> timeline_Gbps) {
  report::Figure f = report::rate_figure("tcp.goodput", goodput_Gbps, "Gb/s", flow_subject(src, dst), report::PathModel::tcp_flow);
  f.parameters = {{"test", test.variant}, {"streams", std::to_string(test.streams)}};
  if (src.rail >= 0) f.parameters["rail"] = std::to_string(src.rail);
  if (test.bidir) f.parameters["direction"] = "bidirectional";
  const FlowShares shares = flow_shares(test, flow, ran);
  f.sending_share = shares.sending;
  f.receiving_share = shares.receiving;
  f.samples = std::move(timeline_Gbps);
  return f;
}

// What the listener on `host` turned away, after the record's own story: "listener on node1: 3
// unauthenticated connections rejected".
void note_rejections(report::Record& rec, const Rejections& rej, const std::string& host) {
  rec.extra["rejected_connections"] = rej.count;
  rec.extra["unauthenticated_connections"] = rej.unauthenticated;
  if (rej.count == 0) return;
  rec.extra["rejections"] = rej.first;
  rec.reason += std::string(rec.reason.empty() ? "" : "; ") + "listener on " + host + ": " + rej.summary();
}

}  // namespace

FlowShares flow_shares(const BandwidthTest& test, const FlowSpec& flow, const std::vector<bool>& ran) {
  long out_degree = 0, in_degree = 0;
  for (size_t i = 0; i < test.flows.size(); ++i) {
    if (i < ran.size() && !ran[i]) continue;
    out_degree += test.flows[i].src == flow.src;
    in_degree += test.flows[i].dst == flow.dst;
  }
  return {static_cast<int>(std::max<long>(out_degree, 1)), static_cast<int>(std::max<long>(in_degree, 1))};
}

report::Ceiling flow_ceiling(const BandwidthTest& test, const FlowSpec& flow, const std::vector<Node>& nodes) {
  const FlowShares s = flow_shares(test, flow);
  return report::tcp_flow_ceiling(link_json(nodes[static_cast<size_t>(flow.src)].link),
                                  link_json(nodes[static_cast<size_t>(flow.dst)].link), s.sending, s.receiving);
}

std::vector<report::Record> bandwidth_records(const BandwidthTest& test, const TestResults& results,
                                              const std::vector<Node>& nodes, const TcpConfig& cfg, const RunFacts& run) {
  std::vector<report::Record> out;
  double sum_bps = 0;
  int64_t sum_bytes = 0;
  Status worst = Status::passed;
  std::vector<bool> ran;  // the flows that completed share the links; a failed one is not counted
  for (const auto& flow : test.flows) {
    const ReceiveResult* rx = find_received(results, flow, nodes);
    const SendResult* tx = find_sent(results, flow, nodes);
    ran.push_back(rx && tx && rx->status == Status::passed && tx->status == Status::passed);
  }
  for (const auto& flow : test.flows) {
    const Node& src = nodes[static_cast<size_t>(flow.src)];
    const Node& dst = nodes[static_cast<size_t>(flow.dst)];
    report::Record rec;
    rec.suite = "tcp";
    rec.name = "bandwidth";
    rec.variant = test.variant;
    rec.ranks = distinct_participants(test);
    rec.count = test.streams;
    describe_pair(rec, src, dst, run);
    const ReceiveResult* rx = find_received(results, flow, nodes);
    const SendResult* tx = find_sent(results, flow, nodes);
    const double goodput = rx ? rx->goodput_bps : 0.0;
    rec.bytes = rx ? rx->bytes : 0;
    rec.algbw_GBps = goodput / 8e9;
    if (!rx || !tx) {
      rec.status = Status::failed;
      rec.reason = std::string("no result from the ") + (!rx ? "receiver on " + dst.host : "sender on " + src.host);
    } else if (rx->status != Status::passed) {
      rec.status = rx->status;
      rec.reason = "receiver " + dst.host + ": " + rx->reason;
      if (tx->status != Status::passed) rec.reason += "; sender " + src.host + ": " + tx->reason;
    } else if (tx->status != Status::passed) {
      rec.status = tx->status;
      rec.reason = "sender " + src.host + ": " + tx->reason;
    }
    rec.extra["goodput_Gbps"] = goodput / 1e9;
    rec.extra["streams"] = test.streams;
    rec.extra["direction"] = test.bidir ? "bidirectional" : "unidirectional";
    rec.extra["concurrent_flows"] = test.flows.size();
    rec.extra["msg_bytes"] = cfg.msg_bytes;
    rec.extra["sndbuf_bytes"] = cfg.sndbuf > 0 ? json(cfg.sndbuf) : json("auto");
    rec.extra["rcvbuf_bytes"] = cfg.rcvbuf > 0 ? json(cfg.rcvbuf) : json("auto");
    if (cfg.bytes > 0)
      rec.extra["bytes_per_flow"] = cfg.bytes;
    else
      rec.extra["duration_s"] = cfg.time_s;
    rec.extra["seconds"] = rx ? rx->seconds : 0.0;
    rec.extra["bytes_sent"] = tx ? tx->bytes : 0;
    rec.extra["sender_seconds"] = tx ? tx->seconds : 0.0;
    if (cfg.live_lines) rec.extra["live_interval_s"] = cfg.live_interval_s;
    rec.extra["stream_bytes"] = rx ? rx->stream_bytes : std::vector<int64_t>{};
    rec.extra["interval_s"] = cfg.interval_s;
    const std::vector<double> timeline = rx ? rx->timeline_Gbps : std::vector<double>{};
    rec.extra["timeline_Gbps"] = timeline;
    rec.figure = flow_figure(test, flow, ran, src, dst, goodput / 1e9, timeline);
    rec.extra["stability"] = summarize_stability(timeline, cfg.interval_s, cfg.dip * report::percentile(timeline, 0.5));
    if (cfg.duration_s > 0) rec.extra["mode"] = "stability";
    rec.extra["tcp_info"] = tx ? json(tx->tcp_info) : json::array();
    // Each end's CPU over the flow, as iperf3 -V prints it (null where that end did not measure it).
    rec.extra["cpu"] = {{"sender", tx ? json(tx->cpu) : json(nullptr)}, {"receiver", rx ? json(rx->cpu) : json(nullptr)}};
    const Rejections none;
    const Rejections& rej = static_cast<size_t>(flow.dst) < results.rejected.size() ? results.rejected[static_cast<size_t>(flow.dst)] : none;
    note_rejections(rec, rej, dst.host);
    sum_bps += goodput;
    sum_bytes += rec.bytes;
    if (rec.status != Status::passed) worst = rec.status;
    out.push_back(rec);
  }

  if ((test.variant == "one-to-many" || test.variant == "many-to-one") && !test.flows.empty()) {
    const bool incast = test.variant == "many-to-one";
    const int root = incast ? test.flows[0].dst : test.flows[0].src;
    const Node& r = nodes[static_cast<size_t>(root)];
    report::Record agg;
    agg.suite = "tcp";
    agg.name = "aggregate";
    agg.variant = test.variant;
    agg.ranks = distinct_participants(test);
    agg.rank = r.rank;
    agg.host = r.host;
    agg.bytes = sum_bytes;
    agg.count = test.streams;
    agg.status = worst;
    if (worst != Status::passed) agg.reason = "some flows did not complete; see the flow records";
    agg.algbw_GBps = sum_bps / 8e9;
    agg.extra["root_host"] = r.host;
    agg.extra["flows"] = test.flows.size();
    agg.extra["goodput_Gbps"] = sum_bps / 1e9;
    agg.extra["goodput_is"] = "sum of the flows' goodputs, measured at each receiver";
    agg.extra["link"] = link_json(r.link);
    agg.figure = report::rate_figure("tcp.goodput", sum_bps / 1e9, "Gb/s",
                                     report::group_subject(test.variant, r.host, agg.ranks), report::PathModel::tcp_link);
    agg.figure->parameters = {{"test", test.variant}, {"streams", std::to_string(test.streams)}};
    if (r.rail >= 0) {  // the root's NIC on this rail
      agg.figure->subject.iface = r.iface;
      agg.figure->parameters["rail"] = std::to_string(r.rail);
      agg.extra["rail"] = r.rail;
      agg.extra["root_iface"] = r.iface;
    }
    out.push_back(agg);
  }
  return out;
}

report::Record latency_record(const FlowSpec& pair, const LatencyOutcome& o, const std::vector<Node>& nodes,
                              const TcpConfig& cfg, const RunFacts& run) {
  const Node& src = nodes[static_cast<size_t>(pair.src)];
  const Node& dst = nodes[static_cast<size_t>(pair.dst)];
  report::Record rec;
  rec.suite = "tcp";
  rec.name = "latency";
  rec.variant = "ping-pong";
  rec.ranks = 2;
  rec.bytes = cfg.lat_bytes;
  rec.count = o.half_rtt_us.samples;
  describe_pair(rec, src, dst, run);
  rec.host = src.host;  // the client measured it
  rec.rank = src.rank;
  rec.status = o.status;
  rec.reason = o.reason;
  rec.time_us = o.time_us;
  rec.extra["latency_us"] = o.half_rtt_us;
  rec.extra["latency_is"] = std::string(report::kLatencyMeasure) + " of a ping-pong, as sockperf and osu_latency report";
  rec.extra["rtt_p50_us"] = o.rtt_p50_us;
  rec.extra["msg_bytes"] = cfg.lat_bytes;
  rec.extra["duration_s"] = cfg.lat_time_s;
  rec.extra["tcp_info"] = json::array({o.tcp_info});
  note_rejections(rec, o.rejected, dst.host);
  if (rec.status != Status::skipped) {
    rec.figure = report::time_figure("tcp.latency", o.time_us.p50, flow_subject(src, dst));
    rec.figure->parameters = {{"test", "latency"}, {"bytes", std::to_string(cfg.lat_bytes)}};
    if (src.rail >= 0) rec.figure->parameters["rail"] = std::to_string(src.rail);
    rec.figure->samples = o.samples_us;
  }
  return rec;
}

}  // namespace gpunet::bench::tcp
