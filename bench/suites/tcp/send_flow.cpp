// The sending end of a bandwidth flow: connect, hello, answer the challenge, wait for the ack, send
// for a duration or a byte count, close the write side, wait for the receiver to confirm the end,
// read TCP_INFO.
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <system_error>

#include "bench/suites/tcp/flows.hpp"
#include "bench/net/socket.hpp"

namespace gpunet::bench::tcp::detail {

using report::Status;

Clock::duration to_duration(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

double to_seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

void abort_close(net::Fd& fd) {
  if (!fd) return;
  const linger lg{1, 0};
  ::setsockopt(fd.get(), SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
  fd.reset();
}

SendFlow::SendFlow(const Peer& peer, const FlowPlan& plan, const auth::Key& key, const BandwidthParams& params,
                   Clock::time_point now)
    : peer_(peer), params_(params), key_(key), connect_deadline_(now + to_duration(params.connect_timeout_s)) {
  result_.peer = peer.id;
  const int n = std::clamp(params.streams, 1, 1024);
  streams_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    Hello h;
    h.test_id = plan.test_id;
    h.sender = plan.self;
    h.stream = static_cast<uint16_t>(i);
    h.streams = static_cast<uint16_t>(n);
    h.kind = StreamKind::bandwidth;
    hellos_.push_back(h);
  }
  for (int i = 0; i < n && !finished_; ++i) {
    Stream& s = streams_[static_cast<size_t>(i)];
    if (params.bytes > 0) s.quota = params.bytes / n + (i == 0 ? params.bytes % n : 0);
    try {
      s.fd = net::start_connect(peer.endpoint, plan.source, params.sock);
    } catch (const std::system_error& e) {
      fail(Status::failed, std::string(e.what()));
    }
  }
}

void SendFlow::add_pollfds(std::vector<pollfd>& fds) {
  polled_.clear();
  if (finished_) return;
  for (size_t i = 0; i < streams_.size(); ++i) {
    const Stream& s = streams_[i];
    short events = 0;
    switch (s.state) {
      case State::connecting: events = POLLOUT; break;
      case State::awaiting_challenge: events = POLLIN; break;
      case State::awaiting_ack: events = POLLIN; break;
      case State::sending: events = POLLOUT; break;
      case State::draining: events = POLLIN; break;
      case State::finished: continue;
    }
    if (!start_ && s.state == State::sending) continue;  // acked, waiting for the other streams
    fds.push_back({s.fd.get(), events, 0});
    polled_.push_back(i);
  }
}

void SendFlow::handle(std::span<const pollfd> fds, Clock::time_point now, std::span<const char> data) {
  for (size_t k = 0; k < polled_.size() && k < fds.size() && !finished_; ++k)
    if (fds[k].revents) handle_stream(streams_[polled_[k]], fds[k].revents, now, data);
  if (!finished_) maybe_start(now);
  if (!finished_) maybe_finish();
  live_tick(now);
}

IntervalReport SendFlow::live_interval(double start_s, double end_s, bool last) {
  IntervalReport r;
  r.peer = peer_.id;
  r.start_s = start_s;
  r.end_s = end_s;
  r.last = last;
  int64_t sent = 0;
  uint32_t retransmits = 0;
  for (const auto& s : streams_) {
    sent += s.sent;
    const auto info = s.fd ? net::read_tcp_info(s.fd.get()) : std::optional<net::TcpInfo>(s.info);
    if (!info) continue;
    retransmits += info->total_retrans;
    r.cwnd_bytes += static_cast<uint64_t>(info->snd_cwnd) * info->snd_mss;
  }
  r.bytes = sent - live_bytes_;
  r.retransmits = retransmits >= live_retransmits_ ? retransmits - live_retransmits_ : 0;
  live_bytes_ = sent;
  live_retransmits_ = retransmits;
  return r;
}

void SendFlow::live_tick(Clock::time_point now) {
  if (live_done_ || !start_ || params_.live_interval_s <= 0 || !params_.on_interval) return;
  if (finished_ && result_.status != Status::passed) {
    live_done_ = true;  // a failed flow: its record says why
    return;
  }
  const double step = params_.live_interval_s;
  const auto whole_intervals_until = [&](double t_s) {
    for (; static_cast<double>(live_count_ + 1) * step <= t_s; ++live_count_)
      params_.on_interval(live_interval(static_cast<double>(live_count_) * step, static_cast<double>(live_count_ + 1) * step, false));
  };
  const bool over = std::none_of(streams_.begin(), streams_.end(), [](const Stream& s) { return s.state == State::sending; });
  if (!over) return whole_intervals_until(to_seconds(now - *start_));
  // The sending is over: the last interval ends with it and takes a remainder shorter than half an
  // interval, so a duration of n intervals prints n lines.
  const double end = std::max(to_seconds((stop_ ? *stop_ : now) - *start_), static_cast<double>(live_count_) * step);
  whole_intervals_until(end - step / 2);
  params_.on_interval(live_interval(static_cast<double>(live_count_) * step, end, true));
  live_done_ = true;
}

void SendFlow::handle_stream(Stream& s, short revents, Clock::time_point now, std::span<const char> data) {
  const std::string to = peer_.endpoint.to_string();
  switch (s.state) {
    case State::connecting: {
      if (const int err = net::connect_error(s.fd.get()); err != 0)
        return fail(Status::failed, "connect to " + to + ": " + net::errno_text(err));
      const auto hello = encode_hello(hellos_[static_cast<size_t>(&s - streams_.data())]);
      const ssize_t n = ::send(s.fd.get(), hello.data(), hello.size(), MSG_NOSIGNAL);
      if (n != static_cast<ssize_t>(hello.size()))
        return fail(Status::failed, "sending the hello to " + to + ": " + (n < 0 ? net::errno_text(errno) : "short write"));
      s.state = State::awaiting_challenge;
      return;
    }
    case State::awaiting_challenge:
      if (read_handshake(s, kChallengeBytes, " closed the connection after the hello (it did not accept the hello)"))
        answer_challenge(s);
      return;
    case State::awaiting_ack:
      if (!read_handshake(s, kAckBytes, " closed the connection after the answer to its challenge (it did not "
                                        "accept this stream)"))
        return;
      if (!is_ack(s.got)) return fail(Status::failed, to + " answered the handshake with something other than an ack");
      s.state = State::sending;
      s.last_progress = now;
      return;
    case State::sending:
      if (revents & (POLLERR | POLLHUP)) {
        const int err = net::connect_error(s.fd.get());
        return fail(Status::failed, "sending to " + to + ": " + (err ? net::errno_text(err) : "connection closed") +
                                        " after " + std::to_string(s.sent) + " bytes");
      }
      return send_some(s, now, data);
    case State::draining: {
      char buf[4096];
      const ssize_t n = ::recv(s.fd.get(), buf, sizeof buf, 0);
      if (n < 0 && net::would_block(errno)) return;
      if (n < 0) return fail(Status::failed, "ending the flow to " + to + ": " + net::errno_text(errno));
      if (n > 0) return;  // the receiver sends nothing; ignore
      if (const auto info = net::read_tcp_info(s.fd.get())) s.info = *info;
      s.fd.reset();
      s.state = State::finished;
      return;
    }
    case State::finished: return;
  }
}

bool SendFlow::read_handshake(Stream& s, size_t want, const std::string& closed_why) {
  uint8_t buf[std::max(kChallengeBytes, kAckBytes)];
  const ssize_t n = ::recv(s.fd.get(), buf, want - s.got.size(), 0);
  if (n < 0 && net::would_block(errno)) return false;
  if (n <= 0) {
    fail(Status::failed, peer_.endpoint.to_string() + closed_why);
    return false;
  }
  s.got.insert(s.got.end(), buf, buf + n);
  return s.got.size() == want;
}

void SendFlow::answer_challenge(Stream& s) {
  const std::string to = peer_.endpoint.to_string();
  const auto nonce = decode_challenge(s.got);
  if (!nonce) return fail(Status::failed, to + " answered the hello with something other than a challenge");
  const auto response = respond_to(key_, *nonce, hellos_[static_cast<size_t>(&s - streams_.data())], peer_.id);
  const ssize_t n = ::send(s.fd.get(), response.data(), response.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  if (n != static_cast<ssize_t>(response.size()))
    return fail(Status::failed, "answering the challenge of " + to + ": " + (n < 0 ? net::errno_text(errno) : "short write"));
  s.got.clear();
  s.state = State::awaiting_ack;
}

std::string SendFlow::waiting_for(State state) {
  switch (state) {
    case State::connecting: return "no connection to ";
    case State::awaiting_challenge: return "no answer to the hello from ";
    default: return "no ack after the answer to the challenge from ";
  }
}

void SendFlow::send_some(Stream& s, Clock::time_point now, std::span<const char> data) {
  if (s.quota < 0) s.unsent.tune(s.fd.get(), now);  // timed flows: what is left at the end drains fast
  for (int k = 0; k < 16; ++k) {
    if (s.quota >= 0 && s.sent >= s.quota) return start_drain(s, now);
    size_t len = data.size();
    if (s.quota >= 0) len = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(len), s.quota - s.sent));
    const ssize_t n = ::send(s.fd.get(), data.data(), len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (net::would_block(errno)) return;
      return fail(Status::failed, "sending to " + peer_.endpoint.to_string() + ": " + net::errno_text(errno) + " after " +
                                      std::to_string(s.sent) + " bytes");
    }
    s.sent += n;
    s.last_progress = now;
  }
  if (s.quota >= 0 && s.sent >= s.quota) start_drain(s, now);
}

void SendFlow::start_drain(Stream& s, Clock::time_point now) {
  ::shutdown(s.fd.get(), SHUT_WR);
  s.state = State::draining;
  s.drain_deadline = now + to_duration(params_.io_timeout_s);
  if (!stop_ || now > *stop_) stop_ = now;
  if (std::none_of(streams_.begin(), streams_.end(), [](const Stream& x) { return x.state == State::sending; }))
    cpu_.close(now);
}

void SendFlow::maybe_start(Clock::time_point now) {
  if (start_) {
    if (params_.bytes <= 0 && now - *start_ >= to_duration(params_.duration_s))
      for (auto& s : streams_)
        if (s.state == State::sending) start_drain(s, now);
    return;
  }
  for (const auto& s : streams_)
    if (s.state != State::sending) return;
  start_ = now;  // every stream is acknowledged: the flow starts
  cpu_.open(now);
  for (auto& s : streams_) s.last_progress = now;
}

void SendFlow::maybe_finish() {
  for (const auto& s : streams_)
    if (s.state != State::finished) return;
  finished_ = true;
  result_.status = Status::passed;
  for (const auto& s : streams_) {
    result_.bytes += s.sent;
    result_.tcp_info.push_back(s.info);
  }
  if (start_ && stop_) result_.seconds = to_seconds(*stop_ - *start_);
  result_.cpu = cpu_.result();
}

void SendFlow::check_timeouts(Clock::time_point now) {
  if (finished_) return;
  const std::string to = peer_.endpoint.to_string();
  for (const auto& s : streams_) {
    switch (s.state) {
      case State::connecting:
      case State::awaiting_challenge:
      case State::awaiting_ack:
        if (now > connect_deadline_)
          return fail(Status::timed_out, waiting_for(s.state) + to + " within " + net::seconds_text(params_.connect_timeout_s));
        break;
      case State::sending:
        if (start_ && now - s.last_progress > to_duration(params_.io_timeout_s))
          return fail(Status::timed_out, "sending to " + to + " stalled for " + net::seconds_text(params_.io_timeout_s) +
                                             " after " + std::to_string(s.sent) + " bytes");
        if (!start_ && now > connect_deadline_)
          return fail(Status::timed_out, "not every stream to " + to + " was accepted within " +
                                             net::seconds_text(params_.connect_timeout_s));
        break;
      case State::draining:
        if (now > s.drain_deadline)
          return fail(Status::timed_out, to + " did not confirm the end of the flow within " +
                                             net::seconds_text(params_.io_timeout_s));
        break;
      case State::finished: break;
    }
  }
}

void SendFlow::fail(Status status, const std::string& why) {
  if (finished_) return;
  finished_ = true;
  result_.status = status;
  result_.reason = why;
  for (auto& s : streams_) {
    result_.bytes += s.sent;
    if (s.fd) {
      if (const auto info = net::read_tcp_info(s.fd.get())) s.info = *info;
    }
    result_.tcp_info.push_back(s.info);
    abort_close(s.fd);
    s.state = State::finished;
  }
  if (start_) result_.seconds = to_seconds((stop_ ? *stop_ : Clock::now()) - *start_);
  cpu_.close(Clock::now());
  result_.cpu = cpu_.result();
}

}  // namespace gpunet::bench::tcp::detail
