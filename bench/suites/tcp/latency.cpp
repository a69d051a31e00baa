#include "bench/suites/tcp/latency.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <system_error>

#include "bench/suites/tcp/flows.hpp"
#include "bench/net/socket.hpp"

namespace gpunet::bench::tcp {

using detail::to_duration;
using detail::to_seconds;
using report::Status;

namespace {

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
    if (n < 0 && !net::would_block(errno)) return "send: " + net::errno_text(errno);
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
    if (!net::would_block(errno)) return "recv: " + net::errno_text(errno);
    if (!wait_for(fd, POLLIN, deadline)) return "timeout";
  }
  return "";
}

// On a blocking socket with SO_SNDTIMEO/SO_RCVTIMEO: "" when done, "timeout", or the error.
std::string send_blocking(int fd, const uint8_t* buf, size_t len) {
  for (size_t done = 0; done < len;) {
    const ssize_t n = ::send(fd, buf + done, len - done, MSG_NOSIGNAL);
    if (n > 0) done += static_cast<size_t>(n);
    else if (n < 0 && errno == EINTR) continue;
    else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return "timeout";
    else return "send: " + net::errno_text(errno);
  }
  return "";
}

std::string recv_blocking(int fd, uint8_t* buf, size_t len) {
  for (size_t done = 0; done < len;) {
    const ssize_t n = ::recv(fd, buf + done, len - done, 0);
    if (n > 0) done += static_cast<size_t>(n);
    else if (n == 0) return "connection closed";
    else if (errno == EINTR) continue;
    else if (errno == EAGAIN || errno == EWOULDBLOCK) return "timeout";
    else return "recv: " + net::errno_text(errno);
  }
  return "";
}

struct HandshakeFailure {
  Status status;
  std::string why;
};

// The client's side of the handshake: hello, the answer to the challenge, the ack.
std::optional<HandshakeFailure> client_handshake(int fd, const auth::Key& key, const PingPong& who,
                                                 Clock::time_point deadline) {
  auto failure = [](const std::string& what, const std::string& e) {
    return HandshakeFailure{e == "timeout" ? Status::timed_out : Status::failed, what + " (" + e + ")"};
  };
  Hello h;
  h.test_id = who.test_id;
  h.sender = who.client;
  h.kind = StreamKind::latency;
  const auto hello = encode_hello(h);
  if (auto e = send_all(fd, hello.data(), hello.size(), deadline); !e.empty()) return failure("did not take the hello", e);
  std::array<uint8_t, kChallengeBytes> challenge{};
  if (auto e = recv_all(fd, challenge.data(), challenge.size(), deadline); !e.empty())
    return failure("refused the hello", e);
  const auto nonce = decode_challenge(challenge);
  if (!nonce) return HandshakeFailure{Status::failed, "answered the hello with something other than a challenge"};
  const auto response = respond_to(key, *nonce, h, who.server);
  if (auto e = send_all(fd, response.data(), response.size(), deadline); !e.empty())
    return failure("did not take the answer to its challenge", e);
  std::array<uint8_t, kAckBytes> ack{};
  if (auto e = recv_all(fd, ack.data(), ack.size(), deadline); !e.empty())
    return failure("did not accept the answer to its challenge", e);
  if (!is_ack(ack)) return HandshakeFailure{Status::failed, "answered the handshake with something other than an ack"};
  return std::nullopt;
}

}  // namespace

LatencyResult run_latency_client(const net::Endpoint& server, const net::IpAddress& source, const auth::Key& key,
                                 const PingPong& who, const LatencyParams& params) {
  LatencyResult res;
  const std::string to = server.to_string();
  auto failed = [&](Status st, const std::string& why) {
    res.status = st;
    res.reason = why;
    return res;
  };
  net::Fd fd;
  net::SocketOptions opt;
  opt.nodelay = true;
  try {
    fd = net::start_connect(server, source, opt);
  } catch (const std::system_error& e) {
    return failed(Status::failed, e.what());
  }
  const auto connect_deadline = Clock::now() + to_duration(params.connect_timeout_s);
  if (!wait_for(fd.get(), POLLOUT, connect_deadline))
    return failed(Status::timed_out, "no connection to " + to + " within " + net::seconds_text(params.connect_timeout_s));
  if (const int err = net::connect_error(fd.get()); err != 0) return failed(Status::failed, "connect to " + to + ": " + net::errno_text(err));
  if (const auto f = client_handshake(fd.get(), key, who, connect_deadline)) return failed(f->status, to + " " + f->why);

  // The round trips wait in blocking calls bounded by the kernel's socket timeouts: no poll() and
  // no failed read per message, so the figure is the network's and not this loop's.
  try {
    net::set_blocking_with_timeout(fd.get(), params.io_timeout_s);
  } catch (const std::system_error& e) {
    return failed(Status::failed, e.what());
  }
  const size_t len = static_cast<size_t>(std::max<int64_t>(1, params.msg_bytes));
  std::vector<uint8_t> msg(len), echo(len);
  res.rtt_us.reserve(static_cast<size_t>(std::min<int64_t>(params.max_iters, 1'000'000)));
  Clock::time_point timed_start{};
  for (int64_t i = 0;; ++i) {
    const bool timed = i >= params.warmup;
    if (timed && i == params.warmup) timed_start = Clock::now();
    if (timed && (static_cast<int64_t>(res.rtt_us.size()) >= params.max_iters ||
                  Clock::now() - timed_start >= to_duration(params.duration_s)))
      break;
    for (size_t b = 0; b < len; ++b) msg[b] = static_cast<uint8_t>(i + static_cast<int64_t>(b));
    const auto t0 = Clock::now();
    std::string e = send_blocking(fd.get(), msg.data(), len);
    if (e.empty()) e = recv_blocking(fd.get(), echo.data(), len);
    const auto t1 = Clock::now();
    if (!e.empty())
      return failed(e == "timeout" ? Status::timed_out : Status::failed,
                    "round trip " + std::to_string(i) + " to " + to + ": " +
                        (e == "timeout" ? "no echo within " + net::seconds_text(params.io_timeout_s) : e));
    if (std::memcmp(msg.data(), echo.data(), len) != 0) ++res.wrong;
    if (timed) res.rtt_us.push_back(to_seconds(t1 - t0) * 1e6);
  }
  if (const auto info = net::read_tcp_info(fd.get())) res.tcp_info = *info;
  ::shutdown(fd.get(), SHUT_WR);
  uint8_t rest[64];
  (void)recv_blocking(fd.get(), rest, sizeof rest);  // wait for the server's close (bounded)
  if (res.wrong > 0) return failed(Status::failed, std::to_string(res.wrong) + " echoes differed from the message sent");
  return res;
}

EchoResult run_latency_server(const net::Listener& listener, const auth::Key& key, const PingPong& who,
                              const LatencyParams& params) {
  EchoResult res;
  // A gate thread keeps the listener: it hands the expected client to this thread and turns away
  // everyone else, while this thread echoes with blocking calls and is woken by data alone.
  Acceptor acceptor(listener.fd(), key, {who.test_id, who.server, StreamKind::latency, params.connect_timeout_s});
  std::mutex mu;
  std::condition_variable arrived;
  net::Fd conn;
  std::atomic<bool> stop{false};
  std::thread gate([&] {
    std::vector<pollfd> fds;
    while (!stop) {
      fds.clear();
      acceptor.add_pollfds(fds);
      ::poll(fds.data(), fds.size(), 50);
      const auto now = Clock::now();
      for (auto& a : acceptor.handle(fds, now)) {
        std::lock_guard lock(mu);
        if (conn || a.hello.sender != who.client) {
          acceptor.rejections().add(a.peer.to_string() + ": sender " + std::to_string(a.hello.sender) + " is not expected now");
          continue;
        }
        const auto ack = encode_ack();
        if (::send(a.fd.get(), ack.data(), ack.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(ack.size())) {
          acceptor.rejections().add(a.peer.to_string() + ": could not acknowledge");
          continue;
        }
        conn = std::move(a.fd);
        arrived.notify_all();
      }
      acceptor.expire(now);
    }
  });

  int fd = -1;
  {
    std::unique_lock lock(mu);
    if (arrived.wait_until(lock, Clock::now() + to_duration(params.connect_timeout_s + 1.0), [&] { return bool(conn); }))
      fd = conn.get();
  }
  if (fd < 0) {
    res.status = Status::failed;
    res.reason = "the ping-pong client did not connect within " + net::seconds_text(params.connect_timeout_s + 1.0);
  } else {
    std::vector<uint8_t> buf(static_cast<size_t>(std::max<int64_t>(64, params.msg_bytes)));
    try {
      net::SocketOptions opt;
      opt.nodelay = true;
      net::apply_options(fd, opt);
      net::set_blocking_with_timeout(fd, params.io_timeout_s);
      for (;;) {
        const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
        if (n == 0) break;  // the client is done
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
          res.status = net::would_block(errno) ? Status::timed_out : Status::failed;
          res.reason = net::would_block(errno) ? "the ping-pong client was silent for " + net::seconds_text(params.io_timeout_s)
                                          : "receiving from the ping-pong client: " + net::errno_text(errno);
          break;
        }
        if (auto e = send_blocking(fd, buf.data(), static_cast<size_t>(n)); !e.empty()) {
          res.status = e == "timeout" ? Status::timed_out : Status::failed;
          res.reason = "echo: " + e;
          break;
        }
        res.bytes += n;
      }
    } catch (const std::system_error& e) {
      res.status = Status::failed;
      res.reason = e.what();
    }
  }
  stop = true;
  gate.join();
  res.rejected = acceptor.rejections();
  return res;
}

}  // namespace gpunet::bench::tcp
