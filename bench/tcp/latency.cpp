#include "bench/tcp/latency.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "bench/tcp/flows.hpp"

namespace gpunet::bench::tcp {

using detail::to_duration;
using detail::to_seconds;
using report::Status;

namespace {

bool would_block(int err) { return err == EAGAIN || err == EWOULDBLOCK || err == EINTR; }

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

// Waits until fd is ready for `events` or the deadline passes. False on timeout.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left < 0) return false;
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left + 1, 1000)));
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return true;  // let the next call report the error
  }
}

// Sends all of buf; "" on success, else why not.
std::string send_all(int fd, const uint8_t* buf, size_t len, Clock::time_point deadline) {
  size_t done = 0;
  while (done < len) {
    const ssize_t n = ::send(fd, buf + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && !would_block(errno)) return "send: " + errno_text(errno);
    if (!wait_for(fd, POLLOUT, deadline)) return "timeout";
  }
  return "";
}

// Receives exactly len bytes. Tries without waiting first: the echo is often already there.
std::string recv_all(int fd, uint8_t* buf, size_t len, Clock::time_point deadline) {
  size_t done = 0;
  while (done < len) {
    const ssize_t n = ::recv(fd, buf + done, len - done, MSG_DONTWAIT);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n == 0) return "connection closed by the server";
    if (!would_block(errno)) return "recv: " + errno_text(errno);
    if (!wait_for(fd, POLLIN, deadline)) return "timeout";
  }
  return "";
}

}  // namespace

LatencyResult run_latency_client(const Endpoint& server, const IpAddress& source, const Secret& secret,
                                 uint64_t test_id, uint32_t self, const LatencyParams& params) {
  LatencyResult res;
  const std::string to = server.to_string();
  auto failed = [&](Status st, const std::string& why) {
    res.status = st;
    res.reason = why;
    return res;
  };
  Fd fd;
  SocketOptions opt;
  opt.nodelay = true;
  try {
    fd = start_connect(server, source, opt);
  } catch (const std::system_error& e) {
    return failed(Status::failed, e.what());
  }
  const auto connect_deadline = Clock::now() + to_duration(params.connect_timeout_s);
  if (!wait_for(fd.get(), POLLOUT, connect_deadline))
    return failed(Status::timed_out, "no connection to " + to + " within " + seconds_text(params.connect_timeout_s));
  if (const int err = connect_error(fd.get()); err != 0) return failed(Status::failed, "connect to " + to + ": " + errno_text(err));
  Hello h;
  h.secret = secret;
  h.test_id = test_id;
  h.sender = self;
  h.kind = StreamKind::latency;
  const auto hello = encode_hello(h);
  std::array<uint8_t, kAckBytes> ack{};
  if (auto e = send_all(fd.get(), hello.data(), hello.size(), connect_deadline); !e.empty())
    return failed(e == "timeout" ? Status::timed_out : Status::failed, "hello to " + to + ": " + e);
  if (auto e = recv_all(fd.get(), ack.data(), ack.size(), connect_deadline); !e.empty() || !is_ack(ack))
    return failed(e == "timeout" ? Status::timed_out : Status::failed,
                  to + " refused the hello" + (e.empty() ? "" : " (" + e + ")"));

  const size_t len = static_cast<size_t>(std::max<int64_t>(1, params.msg_bytes));
  std::vector<uint8_t> msg(len), echo(len);
  res.rtt_us.reserve(static_cast<size_t>(std::min<int64_t>(params.max_iters, 1'000'000)));
  const auto io = to_duration(params.io_timeout_s);
  Clock::time_point timed_start{};
  for (int64_t i = 0;; ++i) {
    const bool timed = i >= params.warmup;
    if (timed && i == params.warmup) timed_start = Clock::now();
    if (timed && (static_cast<int64_t>(res.rtt_us.size()) >= params.max_iters ||
                  Clock::now() - timed_start >= to_duration(params.duration_s)))
      break;
    for (size_t b = 0; b < len; ++b) msg[b] = static_cast<uint8_t>(i + static_cast<int64_t>(b));
    const auto t0 = Clock::now();
    std::string e = send_all(fd.get(), msg.data(), len, t0 + io);
    if (e.empty()) e = recv_all(fd.get(), echo.data(), len, t0 + io);
    const auto t1 = Clock::now();
    if (!e.empty())
      return failed(e == "timeout" ? Status::timed_out : Status::failed,
                    "round trip " + std::to_string(i) + " to " + to + ": " +
                        (e == "timeout" ? "no echo within " + seconds_text(params.io_timeout_s) : e));
    if (std::memcmp(msg.data(), echo.data(), len) != 0) ++res.wrong;
    if (timed) res.rtt_us.push_back(to_seconds(t1 - t0) * 1e6);
  }
  if (const auto info = read_tcp_info(fd.get())) res.tcp_info = *info;
  ::shutdown(fd.get(), SHUT_WR);
  uint8_t rest[64];
  (void)recv_all(fd.get(), rest, sizeof rest, Clock::now() + io);  // wait for the server's close
  if (res.wrong > 0) return failed(Status::failed, std::to_string(res.wrong) + " echoes differed from the message sent");
  return res;
}

EchoResult run_latency_server(const Listener& listener, const Secret& secret, uint64_t test_id, uint32_t peer,
                              const LatencyParams& params) {
  EchoResult res;
  Acceptor acceptor(listener.fd(), secret, test_id, StreamKind::latency, params.connect_timeout_s);
  const auto arrival_deadline = Clock::now() + to_duration(params.connect_timeout_s + 1.0);
  const auto io = to_duration(params.io_timeout_s);
  Fd conn;
  auto last_progress = Clock::now();
  std::vector<uint8_t> buf(static_cast<size_t>(std::max<int64_t>(64, params.msg_bytes)));
  std::vector<pollfd> fds;
  for (;;) {
    fds.clear();
    if (conn) fds.push_back({conn.get(), POLLIN, 0});
    const size_t at_accept = acceptor.add_pollfds(fds);
    ::poll(fds.data(), fds.size(), 100);
    const auto now = Clock::now();
    if (conn && fds[0].revents) {
      const ssize_t n = ::recv(conn.get(), buf.data(), buf.size(), MSG_DONTWAIT);
      if (n == 0) break;  // the client is done
      if (n < 0 && !would_block(errno)) {
        res.status = Status::failed;
        res.reason = "receiving from the ping-pong client: " + errno_text(errno);
        break;
      }
      if (n > 0) {
        if (auto e = send_all(conn.get(), buf.data(), static_cast<size_t>(n), now + io); !e.empty()) {
          res.status = e == "timeout" ? Status::timed_out : Status::failed;
          res.reason = "echo: " + e;
          break;
        }
        res.bytes += n;
        last_progress = now;
      }
    }
    for (auto& a : acceptor.handle(std::span<const pollfd>(fds).subspan(at_accept), now)) {
      const std::string from = a.peer.to_string();
      if (conn || a.hello.sender != peer) {
        acceptor.rejections().add(from + ": sender " + std::to_string(a.hello.sender) + " is not expected now");
        continue;
      }
      const auto ack = encode_ack();
      if (send_all(a.fd.get(), ack.data(), ack.size(), now + io).empty()) {
        conn = std::move(a.fd);
        SocketOptions opt;
        opt.nodelay = true;
        apply_options(conn.get(), opt);
        last_progress = now;
      }
    }
    acceptor.expire(now);
    if (!conn && now > arrival_deadline) {
      res.status = Status::failed;
      res.reason = "the ping-pong client did not connect within " + seconds_text(params.connect_timeout_s + 1.0);
      break;
    }
    if (conn && now - last_progress > io) {
      res.status = Status::timed_out;
      res.reason = "the ping-pong client was silent for " + seconds_text(params.io_timeout_s);
      break;
    }
  }
  res.rejected = acceptor.rejections();
  return res;
}

}  // namespace gpunet::bench::tcp
