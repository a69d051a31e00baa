// TCP latency: a ping-pong of small messages. The client sends a message and waits for the echo;
// each round trip is one sample. Half the round trip is reported as the latency, as sockperf and
// osu_latency do. The server echoes every byte and keeps turning away strangers meanwhile.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/tcp/acceptor.hpp"
#include "bench/tcp/hello.hpp"
#include "bench/tcp/socket.hpp"
#include "report/record.hpp"

namespace gpunet::bench::tcp {

struct LatencyParams {
  int64_t msg_bytes = 14;          // sockperf's default, so the figures compare
  int64_t warmup = 200;            // untimed round trips first
  double duration_s = 1.0;         // timed round trips for this long...
  int64_t max_iters = 1'000'000;   // ...or this many, whichever comes first
  double connect_timeout_s = 5.0;
  double io_timeout_s = 5.0;       // longest wait for any single echo
};

struct LatencyResult {
  report::Status status = report::Status::passed;
  std::string reason;
  std::vector<double> rtt_us;  // one per timed round trip
  int64_t wrong = 0;           // echoes whose content differed from what was sent
  TcpInfo tcp_info;
};

LatencyResult run_latency_client(const Endpoint& server, const IpAddress& source, const Secret& secret,
                                 uint64_t test_id, uint32_t self, const LatencyParams& params);

struct EchoResult {
  report::Status status = report::Status::passed;
  std::string reason;
  int64_t bytes = 0;  // bytes echoed
  Rejections rejected;
};

// Serves one ping-pong client with id `peer` until it closes.
EchoResult run_latency_server(const Listener& listener, const Secret& secret, uint64_t test_id, uint32_t peer,
                              const LatencyParams& params);

}  // namespace gpunet::bench::tcp
