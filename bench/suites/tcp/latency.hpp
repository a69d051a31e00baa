// TCP latency: a ping-pong of small messages. The client sends a message and waits for the echo;
// each round trip is one sample. Half the round trip is reported as the latency, as sockperf and
// osu_latency do. The server echoes every byte and keeps turning away strangers meanwhile.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/suites/tcp/acceptor.hpp"
#include "bench/suites/tcp/hello.hpp"
#include "bench/net/socket.hpp"
#include "report/model/record.hpp"

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
  net::TcpInfo tcp_info;
};

// Who plays which part in one ping-pong test; the answer to the server's challenge covers all three.
struct PingPong {
  uint64_t test_id = 0;
  uint32_t client = 0;  // the client's id (its rank)
  uint32_t server = 0;  // the server's id (its rank)
};

// `key` is the run key (handed out over MPI) that answers the server's challenge.
LatencyResult run_latency_client(const net::Endpoint& server, const net::IpAddress& source, const auth::Key& key,
                                 const PingPong& who, const LatencyParams& params);

struct EchoResult {
  report::Status status = report::Status::passed;
  std::string reason;
  int64_t bytes = 0;  // bytes echoed
  Rejections rejected;
};

// Serves the ping-pong client `who.client` until it closes; lets in no one who can't answer its
// challenge with `key`.
EchoResult run_latency_server(const net::Listener& listener, const auth::Key& key, const PingPong& who,
                              const LatencyParams& params);

}  // namespace gpunet::bench::tcp
