// The two ends of a bandwidth flow as state machines driven by a poll loop (bandwidth.cpp).
// Internal to the TCP engine.
#pragma once

#include <poll.h>

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bench/suites/tcp/bandwidth.hpp"
#include "bench/suites/tcp/timeline.hpp"
#include "bench/suites/tcp/unsent_bound.hpp"

namespace gpunet::bench::tcp::detail {

Clock::duration to_duration(double seconds);
double to_seconds(Clock::duration d);
// Closes with a reset, so the other end sees an abnormal end rather than a clean one.
void abort_close(net::Fd& fd);

class SendFlow {
 public:
  SendFlow(const Peer& peer, const FlowPlan& plan, const auth::Key& key, const BandwidthParams& params,
           Clock::time_point now);
  void add_pollfds(std::vector<pollfd>& fds);
  void handle(std::span<const pollfd> fds, Clock::time_point now, std::span<const char> data);
  void check_timeouts(Clock::time_point now);
  bool done() const { return finished_; }
  const SendResult& result() const { return result_; }

 private:
  enum class State { connecting, awaiting_challenge, awaiting_ack, sending, draining, finished };
  struct Stream {
    net::Fd fd;
    State state = State::connecting;
    std::vector<uint8_t> got;  // the challenge so far, then the ack so far
    int64_t sent = 0;
    int64_t quota = -1;  // bytes to send, -1 = until the duration ends
    Clock::time_point last_progress;
    Clock::time_point drain_deadline;
    net::TcpInfo info;
    UnsentBound unsent;  // what it leaves unsent when the time is up
  };
  void handle_stream(Stream& s, short revents, Clock::time_point now, std::span<const char> data);
  // Reads toward `want` bytes of the handshake into s.got; true once they are all there.
  bool read_handshake(Stream& s, size_t want, const std::string& closed_why);
  void answer_challenge(Stream& s);
  // What a stream that timed out in its handshake was waiting for: "no connection to " etc.
  static std::string waiting_for(State state);
  void send_some(Stream& s, Clock::time_point now, std::span<const char> data);
  void start_drain(Stream& s, Clock::time_point now);
  void fail(report::Status status, const std::string& why);
  void maybe_start(Clock::time_point now);
  void maybe_finish();
  // Hands on the intervals that have ended, and the last one once the sending is over.
  void live_tick(Clock::time_point now);
  IntervalReport live_interval(double start_s, double end_s, bool last);

  Peer peer_;
  BandwidthParams params_;
  auth::Key key_;
  std::vector<Hello> hellos_;  // one per stream
  std::vector<Stream> streams_;
  std::vector<size_t> polled_;
  Clock::time_point connect_deadline_;
  std::optional<Clock::time_point> start_, stop_;
  bool finished_ = false;
  SendResult result_;
  // Live intervals: how many have been handed on, and the totals at the end of the last one.
  int64_t live_count_ = 0;
  int64_t live_bytes_ = 0;
  uint32_t live_retransmits_ = 0;
  bool live_done_ = false;
  FlowCpuWindow cpu_;
};

class ReceiveFlow {
 public:
  ReceiveFlow(uint32_t peer, const BandwidthParams& params, Clock::time_point now);
  uint32_t peer() const { return result_.peer; }
  // Takes an accepted stream of this flow; returns why it is refused (empty when taken).
  std::string take(Accepted&& a, Clock::time_point now);
  void add_pollfds(std::vector<pollfd>& fds);
  void handle(std::span<const pollfd> fds, Clock::time_point now, std::span<char> buf);
  void check_timeouts(Clock::time_point now);
  bool done() const { return finished_; }
  // Every stream of the flow has connected (or the flow ended): nothing more may arrive for it.
  bool arrived() const;
  ReceiveResult result() const;

 private:
  struct Stream {
    net::Fd fd;
    bool open = false;
    bool eof = false;
    Clock::time_point last_progress;
  };
  void read_stream(size_t index, Clock::time_point now, std::span<char> buf);
  void fail(report::Status status, const std::string& why);

  BandwidthParams params_;
  std::vector<Stream> streams_;
  std::vector<size_t> polled_;
  Clock::time_point arrival_deadline_;
  std::optional<double> first_s_, last_s_;  // arrival of the first and last data (kernel stamps)
  int64_t first_chunk_ = 0;
  Timeline timeline_;
  FlowCpuWindow cpu_;
  bool finished_ = false;
  ReceiveResult result_;
};

}  // namespace gpunet::bench::tcp::detail
