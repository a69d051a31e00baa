// JSON forms of the engine's results (nlohmann), for the records and for carrying results between
// ranks over MPI.
#pragma once

#include "common/json.hpp"

#include "bench/suites/tcp/bandwidth.hpp"
#include "bench/suites/tcp/ceiling.hpp"
#include "bench/suites/tcp/latency.hpp"
#include "bench/suites/tcp/timeline.hpp"

// The sockets layer's types, in their own namespace so that nlohmann finds them (bench/net knows no JSON).
namespace gpunet::bench::net {

void to_json(gpunet::json& j, const TcpInfo& t);
void from_json(const gpunet::json& j, TcpInfo& t);
void to_json(gpunet::json& j, const Endpoint& e);
void from_json(const gpunet::json& j, Endpoint& e);

}  // namespace gpunet::bench::net

namespace gpunet::bench::tcp {

void to_json(gpunet::json& j, const LinkFacts& l);
void from_json(const gpunet::json& j, LinkFacts& l);
void to_json(gpunet::json& j, const Rejections& r);
void from_json(const gpunet::json& j, Rejections& r);
void to_json(gpunet::json& j, const FlowCpu& c);
void from_json(const gpunet::json& j, FlowCpu& c);
void to_json(gpunet::json& j, const SendResult& r);
void from_json(const gpunet::json& j, SendResult& r);
void to_json(gpunet::json& j, const ReceiveResult& r);
void from_json(const gpunet::json& j, ReceiveResult& r);
void to_json(gpunet::json& j, const LatencySummary& s);
void from_json(const gpunet::json& j, LatencySummary& s);
void to_json(gpunet::json& j, const StabilitySummary& s);

// The link as a record's extra.link: {kind, iface, speed_Mbps, mtu, ipv6, tcp_timestamps, shaped_rate_bps, loopback}.
gpunet::json link_json(const LinkFacts& l);

}  // namespace gpunet::bench::tcp
