// The listening side's gatekeeper, run inside a server's poll loop: accepts connections, gives
// each a deadline to present a hello, and hands on only those whose hello carries this run's
// secret and this test's id. Anything else is closed at once (or at its deadline) and noted,
// without blocking the loop that is measuring.
#pragma once

#include <poll.h>

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bench/tcp/hello.hpp"
#include "bench/tcp/socket.hpp"

namespace gpunet::bench::tcp {

using Clock = std::chrono::steady_clock;

struct Accepted {
  Fd fd;
  Hello hello;
  Endpoint peer;
};

// Rejected connections: how many, and the first few reasons.
struct Rejections {
  int64_t count = 0;
  std::vector<std::string> first;  // at most kKept
  static constexpr size_t kKept = 8;
  void add(const std::string& why);
};

class Acceptor {
 public:
  Acceptor(int listen_fd, const Secret& secret, uint64_t test_id, StreamKind kind, double hello_timeout_s);

  // Appends the listener's and the pending connections' pollfds; returns where they start.
  size_t add_pollfds(std::vector<pollfd>& fds) const;
  // Handles the slice that add_pollfds appended (same order); returns connections with a valid hello.
  std::vector<Accepted> handle(std::span<const pollfd> mine, Clock::time_point now);
  // Closes pending connections whose hello did not arrive in time.
  void expire(Clock::time_point now);

  Rejections& rejections() { return rejected_; }
  const Rejections& rejections() const { return rejected_; }

 private:
  struct Pending {
    Fd fd;
    Endpoint peer;
    std::vector<uint8_t> got;
    Clock::time_point deadline;
  };
  static constexpr size_t kMaxPending = 64;

  int listen_fd_;
  Secret secret_;
  uint64_t test_id_;
  StreamKind kind_;
  Clock::duration hello_timeout_;
  std::vector<Pending> pending_;
  Rejections rejected_;
};

}  // namespace gpunet::bench::tcp
