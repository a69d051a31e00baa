// The sending end of a bandwidth flow: connect, hello, wait for the ack, send for a duration or a
// byte count, close the write side, wait for the receiver to confirm the end, read TCP_INFO.
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <system_error>

#include "bench/tcp/flows.hpp"
#include "bench/tcp/socket.hpp"

namespace gpunet::bench::tcp::detail {

using report::Status;

Clock::duration to_duration(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

double to_seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

void abort_close(Fd& fd) {
  if (!fd) return;
  const linger lg{1, 0};
  ::setsockopt(fd.get(), SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
  fd.reset();
}

SendFlow::SendFlow(const Peer& peer, const FlowPlan& plan, const Secret& secret, const BandwidthParams& params,
                   Clock::time_point now)
    : peer_(peer), params_(params), connect_deadline_(now + to_duration(params.connect_timeout_s)) {
  result_.peer = peer.id;
  const int n = std::clamp(params.streams, 1, 1024);
  streams_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    Hello h;
    h.secret = secret;
    h.test_id = plan.test_id;
    h.sender = plan.self;
    h.stream = static_cast<uint16_t>(i);
    h.streams = static_cast<uint16_t>(n);
    h.kind = StreamKind::bandwidth;
    hellos_.push_back(encode_hello(h));
  }
  for (int i = 0; i < n && !finished_; ++i) {
    Stream& s = streams_[static_cast<size_t>(i)];
    if (params.bytes > 0) s.quota = params.bytes / n + (i == 0 ? params.bytes % n : 0);
    try {
      s.fd = start_connect(peer.endpoint, plan.source, params.sock);
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
}

void SendFlow::handle_stream(Stream& s, short revents, Clock::time_point now, std::span<const char> data) {
  const std::string to = peer_.endpoint.to_string();
  switch (s.state) {
    case State::connecting: {
      if (const int err = connect_error(s.fd.get()); err != 0)
        return fail(Status::failed, "connect to " + to + ": " + errno_text(err));
      const auto& hello = hellos_[static_cast<size_t>(&s - streams_.data())];
      const ssize_t n = ::send(s.fd.get(), hello.data(), hello.size(), MSG_NOSIGNAL);
      if (n != static_cast<ssize_t>(hello.size()))
        return fail(Status::failed, "sending the hello to " + to + ": " + (n < 0 ? errno_text(errno) : "short write"));
      s.state = State::awaiting_ack;
      return;
    }
    case State::awaiting_ack: {
      uint8_t buf[kAckBytes];
      const ssize_t n = ::recv(s.fd.get(), buf, kAckBytes - s.ack.size(), 0);
      if (n < 0 && would_block(errno)) return;
      if (n <= 0)
        return fail(Status::failed, to + " refused the hello (closed the connection: wrong secret, test or listener?)");
      s.ack.insert(s.ack.end(), buf, buf + n);
      if (s.ack.size() < kAckBytes) return;
      if (!is_ack(s.ack)) return fail(Status::failed, to + " answered the hello with something else");
      s.state = State::sending;
      s.last_progress = now;
      return;
    }
    case State::sending:
      if (revents & (POLLERR | POLLHUP)) {
        const int err = connect_error(s.fd.get());
        return fail(Status::failed, "sending to " + to + ": " + (err ? errno_text(err) : "connection closed") +
                                        " after " + std::to_string(s.sent) + " bytes");
      }
      return send_some(s, now, data);
    case State::draining: {
      char buf[4096];
      const ssize_t n = ::recv(s.fd.get(), buf, sizeof buf, 0);
      if (n < 0 && would_block(errno)) return;
      if (n < 0) return fail(Status::failed, "ending the flow to " + to + ": " + errno_text(errno));
      if (n > 0) return;  // the receiver sends nothing; ignore
      if (const auto info = read_tcp_info(s.fd.get())) s.info = *info;
      s.fd.reset();
      s.state = State::finished;
      return;
    }
    case State::finished: return;
  }
}

void SendFlow::send_some(Stream& s, Clock::time_point now, std::span<const char> data) {
  for (int k = 0; k < 16; ++k) {
    if (s.quota >= 0 && s.sent >= s.quota) return start_drain(s, now);
    size_t len = data.size();
    if (s.quota >= 0) len = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(len), s.quota - s.sent));
    const ssize_t n = ::send(s.fd.get(), data.data(), len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (would_block(errno)) return;
      return fail(Status::failed, "sending to " + peer_.endpoint.to_string() + ": " + errno_text(errno) + " after " +
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
}

void SendFlow::check_timeouts(Clock::time_point now) {
  if (finished_) return;
  const std::string to = peer_.endpoint.to_string();
  for (const auto& s : streams_) {
    switch (s.state) {
      case State::connecting:
      case State::awaiting_ack:
        if (now > connect_deadline_)
          return fail(Status::timed_out, std::string(s.state == State::connecting ? "no connection to " : "no answer to the hello from ") +
                                             to + " within " + seconds_text(params_.connect_timeout_s));
        break;
      case State::sending:
        if (start_ && now - s.last_progress > to_duration(params_.io_timeout_s))
          return fail(Status::timed_out, "sending to " + to + " stalled for " + seconds_text(params_.io_timeout_s) +
                                             " after " + std::to_string(s.sent) + " bytes");
        if (!start_ && now > connect_deadline_)
          return fail(Status::timed_out, "not every stream to " + to + " was accepted within " +
                                             seconds_text(params_.connect_timeout_s));
        break;
      case State::draining:
        if (now > s.drain_deadline)
          return fail(Status::timed_out, to + " did not confirm the end of the flow within " +
                                             seconds_text(params_.io_timeout_s));
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
      if (const auto info = read_tcp_info(s.fd.get())) s.info = *info;
    }
    result_.tcp_info.push_back(s.info);
    abort_close(s.fd);
    s.state = State::finished;
  }
  if (start_) result_.seconds = to_seconds((stop_ ? *stop_ : Clock::now()) - *start_);
}

}  // namespace gpunet::bench::tcp::detail
