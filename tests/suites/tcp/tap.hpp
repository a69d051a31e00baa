// A sniffer's view of the data network for the engine tests: a relay on 127.0.0.1 that a real
// sender is pointed at instead of the real listener. It forwards every byte both ways and keeps the
// first bytes of each direction — what anyone who can see the wire sees of one connection.
#pragma once

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "bench/net/socket.hpp"
#include "loopback.hpp"

namespace tcptest {

class Tap {
 public:
  static constexpr size_t kKept = 4096;  // bytes kept of each direction

  explicit Tap(const Endpoint& upstream) : listener_(loopback(), {}), upstream_(upstream) {
    thread_ = std::thread([this] { run(); });
  }
  ~Tap() { wait(); }
  Tap(const Tap&) = delete;
  Tap& operator=(const Tap&) = delete;

  const Endpoint& endpoint() const { return listener_.endpoint(); }
  // Waits until the relayed connection has ended both ways (or 30 s have passed).
  void wait() {
    if (thread_.joinable()) thread_.join();
  }
  // What the connector sent (hello, response, data) and what the listener sent (challenge, ack);
  // read after wait().
  const std::vector<uint8_t>& to_listener() const { return up_; }
  const std::vector<uint8_t>& to_connector() const { return down_; }

 private:
  void run() {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    Fd client;
    while (!client && std::chrono::steady_clock::now() < until) {
      pollfd p{listener_.fd(), POLLIN, 0};
      ::poll(&p, 1, 50);
      client = accept_one(listener_.fd(), nullptr);
    }
    if (!client) return;
    Fd server = raw_connect(upstream_);
    if (!server) return;
    relay(client, server, until);
  }

  void relay(Fd& client, Fd& server, std::chrono::steady_clock::time_point until) {
    // Blocking writes (bounded), non-blocking reads.
    set_blocking_with_timeout(client.get(), 10.0);
    bool client_open = true, server_open = true;
    std::vector<uint8_t> buf(64 << 10);
    while ((client_open || server_open) && std::chrono::steady_clock::now() < until) {
      pollfd fds[2] = {{client_open ? client.get() : -1, POLLIN, 0}, {server_open ? server.get() : -1, POLLIN, 0}};
      if (::poll(fds, 2, 50) <= 0) continue;
      if (fds[0].revents && !forward(client, server, up_, buf, client_open)) break;
      if (fds[1].revents && !forward(server, client, down_, buf, server_open)) break;
    }
  }

  // Copies what `from` has to `to`, keeping the first bytes; at `from`'s end, ends `to`'s too.
  static bool forward(Fd& from, Fd& to, std::vector<uint8_t>& kept, std::vector<uint8_t>& buf, bool& open) {
    const ssize_t n = ::recv(from.get(), buf.data(), buf.size(), MSG_DONTWAIT);
    if (n < 0) return would_block(errno);
    if (n == 0) {
      open = false;
      ::shutdown(to.get(), SHUT_WR);
      return true;
    }
    const size_t keep = std::min(static_cast<size_t>(n), kKept - std::min(kKept, kept.size()));
    kept.insert(kept.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(keep));
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::send(to.get(), buf.data() + done, static_cast<size_t>(n - done), MSG_NOSIGNAL);
      if (w <= 0) return false;
      done += w;
    }
    return true;
  }

  Listener listener_;
  Endpoint upstream_;
  std::vector<uint8_t> up_, down_;
  std::thread thread_;
};

}  // namespace tcptest
