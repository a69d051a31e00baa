// TCP bandwidth between ranks: one call per rank per test, in which the rank sends the flows it
// was given and receives the flows it expects, all in one poll loop. A flow is one or more
// parallel streams from one sender to one receiver. Bidirectional, one-to-many and many-to-one
// tests are all sets of flows. Goodput is measured at the receiver.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/suites/tcp/acceptor.hpp"
#include "bench/suites/tcp/flow_cpu.hpp"
#include "bench/suites/tcp/hello.hpp"
#include "bench/net/socket.hpp"
#include "report/model/record.hpp"

namespace gpunet::bench::tcp {

// What a sender saw in one interval of its flow (the live console's interval line): bytes it wrote,
// segments retransmitted and the congestion window at the end (TCP_INFO, summed over the streams).
// The last interval ends when the sending ends and may be shorter.
struct IntervalReport {
  uint32_t peer = 0;  // the receiver's id
  double start_s = 0, end_s = 0;  // from the flow's start
  int64_t bytes = 0;
  uint32_t retransmits = 0;
  uint64_t cwnd_bytes = 0;
  bool last = false;
};

struct BandwidthParams {
  int streams = 1;                  // parallel streams per flow
  double duration_s = 2.0;          // how long each sender sends (when bytes == 0)
  int64_t bytes = 0;                // bytes per flow instead of a duration (0 = use duration_s)
  int64_t msg_bytes = 128 << 10;    // bytes per send() and per recv()
  net::SocketOptions sock;          // SO_SNDBUF / SO_RCVBUF for the connecting side
  double interval_s = 0.1;          // timeline interval
  double connect_timeout_s = 5.0;   // connect + handshake + ack, and how long a receiver waits for streams
  double io_timeout_s = 5.0;        // longest silence on a stream before the flow is given up
  // Live intervals: every live_interval_s each sender hands on_interval what it sent (0 or no
  // function: none). Called from the poll loop: it must not block (the control plane queues it).
  double live_interval_s = 0;
  std::function<void(const IntervalReport&)> on_interval;
};

struct Peer {
  uint32_t id = 0;     // its rank
  net::Endpoint endpoint;   // its listener
};

struct FlowPlan {
  uint64_t test_id = 0;
  uint32_t self = 0;                   // this rank's id: the sender in its hellos, the receiver in its challenges
  net::IpAddress source;               // connect from this address
  std::vector<Peer> send_to;           // flows this rank sends
  std::vector<uint32_t> receive_from;  // flows this rank receives, by sender id
};

struct SendResult {
  uint32_t peer = 0;
  report::Status status = report::Status::passed;
  std::string reason;
  int64_t bytes = 0;        // bytes written by this sender
  double seconds = 0;       // from the first byte sent to the last write
  std::vector<net::TcpInfo> tcp_info;  // one per stream, read after the receiver confirmed the end
  FlowCpu cpu;              // this thread's CPU from the first byte sent to the end of sending
};

struct ReceiveResult {
  uint32_t peer = 0;
  report::Status status = report::Status::passed;
  std::string reason;
  int64_t bytes = 0;                 // bytes received
  double seconds = 0;                // first byte to last byte
  double goodput_bps = 0;            // bytes after the first read × 8 / seconds
  std::vector<int64_t> stream_bytes; // per stream
  std::vector<double> timeline_Gbps; // per interval from the first byte
  FlowCpu cpu;                       // this thread's CPU from the first byte to the end of data
};

struct BandwidthOutcome {
  std::vector<SendResult> sent;
  std::vector<ReceiveResult> received;
  Rejections rejected;  // connections turned away at the listener
};

// Runs one test on this rank. Never throws for network trouble: each flow carries its own status.
// `key` is the run key (handed out over MPI): it answers the listeners' challenges and checks the answers.
BandwidthOutcome run_bandwidth(const net::Listener& listener, const auth::Key& key, const FlowPlan& plan,
                               const BandwidthParams& params);

}  // namespace gpunet::bench::tcp
