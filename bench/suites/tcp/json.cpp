#include "bench/suites/tcp/json.hpp"

#include "report/model/record.hpp"

namespace gpunet::bench::net {

using gpunet::json;

void to_json(json& j, const TcpInfo& t) {
  j = json{{"retransmits", t.total_retrans}, {"rtt_us", t.rtt_us},     {"rttvar_us", t.rttvar_us},
           {"cwnd_segments", t.snd_cwnd},    {"mss_bytes", t.snd_mss}, {"pmtu_bytes", t.pmtu},
           {"timestamps", t.timestamps},     {"bytes_acked", t.bytes_acked}, {"bytes_retrans", t.bytes_retrans}};
}

void from_json(const json& j, TcpInfo& t) {
  t.total_retrans = j.at("retransmits").get<uint32_t>();
  t.rtt_us = j.at("rtt_us").get<uint32_t>();
  t.rttvar_us = j.at("rttvar_us").get<uint32_t>();
  t.snd_cwnd = j.at("cwnd_segments").get<uint32_t>();
  t.snd_mss = j.at("mss_bytes").get<uint32_t>();
  t.pmtu = j.at("pmtu_bytes").get<uint32_t>();
  t.timestamps = j.at("timestamps").get<bool>();
  t.bytes_acked = j.at("bytes_acked").get<uint64_t>();
  t.bytes_retrans = j.at("bytes_retrans").get<uint64_t>();
}

void to_json(json& j, const Endpoint& e) { j = json{{"ip", e.ip.to_string()}, {"port", e.port}}; }

void from_json(const json& j, Endpoint& e) {
  e.ip = parse_ip(j.at("ip").get<std::string>()).value_or(IpAddress{});
  e.port = j.at("port").get<uint16_t>();
}

}  // namespace gpunet::bench::net

namespace gpunet::bench::tcp {

using gpunet::json;

void to_json(json& j, const LinkFacts& l) {
  j = json{{"iface", l.iface},   {"speed_Mbps", l.speed_Mbps},       {"mtu", l.mtu},
           {"ipv6", l.ipv6},     {"tcp_timestamps", l.tcp_timestamps}, {"shaped_rate_bps", l.shaped_rate_bps},
           {"stated_rate_bps", l.stated_rate_bps}, {"loopback", l.loopback}, {"driver", l.driver}};
}

void from_json(const json& j, LinkFacts& l) {
  l.iface = j.at("iface").get<std::string>();
  l.speed_Mbps = j.at("speed_Mbps").get<int>();
  l.mtu = j.at("mtu").get<int>();
  l.ipv6 = j.at("ipv6").get<bool>();
  l.tcp_timestamps = j.at("tcp_timestamps").get<bool>();
  l.shaped_rate_bps = j.at("shaped_rate_bps").get<double>();
  l.stated_rate_bps = j.at("stated_rate_bps").get<double>();
  l.loopback = j.at("loopback").get<bool>();
  l.driver = j.at("driver").get<std::string>();
}

json link_json(const LinkFacts& l) {
  return json{{"kind", "ethernet"},
              {"iface", l.iface},
              {"speed_Mbps", l.speed_Mbps > 0 ? json(l.speed_Mbps) : json(nullptr)},
              {"mtu", l.mtu},
              {"ipv6", l.ipv6},
              {"tcp_timestamps", l.tcp_timestamps},
              {"shaped_rate_bps", l.shaped_rate_bps > 0 ? json(l.shaped_rate_bps) : json(nullptr)},
              {"stated_rate_bps", l.stated_rate_bps > 0 ? json(l.stated_rate_bps) : json(nullptr)},
              {"loopback", l.loopback},
              {"driver", l.driver}};
}

void to_json(json& j, const Rejections& r) {
  j = json{{"count", r.count}, {"unauthenticated", r.unauthenticated}, {"first", r.first}};
}

void from_json(const json& j, Rejections& r) {
  r.count = j.at("count").get<int64_t>();
  r.unauthenticated = j.at("unauthenticated").get<int64_t>();
  r.first = j.at("first").get<std::vector<std::string>>();
}

// A flow end's CPU, as a record's extra.cpu.sender / .receiver: {user_pct, sys_pct, cpu, pinned,
// core_busy_pct (null unless pinned)}; null when not measured.
void to_json(json& j, const FlowCpu& c) {
  if (!c.measured) {
    j = nullptr;
    return;
  }
  j = json{{"user_pct", c.user_pct}, {"sys_pct", c.sys_pct}, {"cpu", c.cpu}, {"pinned", c.pinned},
           {"core_busy_pct", c.core_busy_pct ? json(*c.core_busy_pct) : json(nullptr)}};
}

void from_json(const json& j, FlowCpu& c) {
  c = FlowCpu{};
  if (j.is_null()) return;
  c.measured = true;
  c.user_pct = j.at("user_pct").get<double>();
  c.sys_pct = j.at("sys_pct").get<double>();
  c.cpu = j.at("cpu").get<int>();
  c.pinned = j.at("pinned").get<bool>();
  if (const auto& b = j.at("core_busy_pct"); !b.is_null()) c.core_busy_pct = b.get<double>();
}

void to_json(json& j, const SendResult& r) {
  j = json{{"peer", r.peer},   {"status", report::to_string(r.status)}, {"reason", r.reason},
           {"bytes", r.bytes}, {"seconds", r.seconds},                  {"tcp_info", r.tcp_info},
           {"cpu", r.cpu}};
}

void from_json(const json& j, SendResult& r) {
  r.peer = j.at("peer").get<uint32_t>();
  r.status = report::status_from_string(j.at("status").get<std::string>());
  r.reason = j.at("reason").get<std::string>();
  r.bytes = j.at("bytes").get<int64_t>();
  r.seconds = j.at("seconds").get<double>();
  r.tcp_info = j.at("tcp_info").get<std::vector<net::TcpInfo>>();
  r.cpu = j.at("cpu").get<FlowCpu>();
}

void to_json(json& j, const ReceiveResult& r) {
  j = json{{"peer", r.peer},       {"status", report::to_string(r.status)}, {"reason", r.reason},
           {"bytes", r.bytes},     {"seconds", r.seconds},                  {"goodput_bps", r.goodput_bps},
           {"stream_bytes", r.stream_bytes}, {"timeline_Gbps", r.timeline_Gbps}, {"cpu", r.cpu}};
}

void from_json(const json& j, ReceiveResult& r) {
  r.peer = j.at("peer").get<uint32_t>();
  r.status = report::status_from_string(j.at("status").get<std::string>());
  r.reason = j.at("reason").get<std::string>();
  r.bytes = j.at("bytes").get<int64_t>();
  r.seconds = j.at("seconds").get<double>();
  r.goodput_bps = j.at("goodput_bps").get<double>();
  r.stream_bytes = j.at("stream_bytes").get<std::vector<int64_t>>();
  r.timeline_Gbps = j.at("timeline_Gbps").get<std::vector<double>>();
  r.cpu = j.at("cpu").get<FlowCpu>();
}

void to_json(json& j, const LatencySummary& s) {
  j = json{{"min", s.min}, {"p50", s.p50},   {"p90", s.p90},       {"p99", s.p99},         {"p99_9", s.p999},
           {"max", s.max}, {"mean", s.mean}, {"stddev", s.stddev}, {"jitter", s.jitter}, {"samples", s.samples}};
}

void from_json(const json& j, LatencySummary& s) {
  s.min = j.at("min").get<double>();
  s.p50 = j.at("p50").get<double>();
  s.p90 = j.at("p90").get<double>();
  s.p99 = j.at("p99").get<double>();
  s.p999 = j.at("p99_9").get<double>();
  s.max = j.at("max").get<double>();
  s.mean = j.at("mean").get<double>();
  s.stddev = j.at("stddev").get<double>();
  s.jitter = j.at("jitter").get<double>();
  s.samples = j.at("samples").get<int64_t>();
}

void to_json(json& j, const StabilitySummary& s) {
  json dips = json::array();
  for (const auto& d : s.dips) dips.push_back({{"start_s", d.start_s}, {"end_s", d.end_s}, {"min_Gbps", d.min_Gbps}});
  j = json{{"min_Gbps", s.min_Gbps},   {"p1_Gbps", s.p1_Gbps},         {"p50_Gbps", s.p50_Gbps},
           {"max_Gbps", s.max_Gbps},   {"threshold_Gbps", s.threshold_Gbps}, {"dips", dips},
           {"below_s", s.below_s},     {"intervals", s.intervals}};
}

}  // namespace gpunet::bench::tcp
