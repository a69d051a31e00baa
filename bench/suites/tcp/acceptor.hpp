// The listening side's gatekeeper, run inside a server's poll loop. Every connection must, within
// its handshake deadline, send a hello for this test and answer a fresh challenge with the run key
// (hello.hpp); only then is it handed on. Anything else is closed at once (or at its deadline) and
// counted, without blocking the loop that is measuring. The connections still in their handshake
// are bounded: when the table is full, the oldest that has sent nothing (else the oldest) gives way
// to the newcomer, so a flood of strangers can neither fill it nor keep a peer out. Once every
// expected connection is in, newcomers are closed at once (close_to_newcomers).
#pragma once

#include <poll.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bench/core/auth/hmac.hpp"
#include "bench/suites/tcp/hello.hpp"
#include "bench/net/socket.hpp"

namespace gpunet::bench::tcp {

using Clock = std::chrono::steady_clock;

struct Accepted {
  net::Fd fd;
  Hello hello;  // authenticated: its sender answered the challenge with the run key
  net::Endpoint peer;
};

// Rejected connections: how many, how many of them never authenticated, and the first few reasons.
struct Rejections {
  int64_t count = 0;
  int64_t unauthenticated = 0;
  std::vector<std::string> first;  // at most kKept
  static constexpr size_t kKept = 8;
  // A stream from an authenticated peer that was not wanted (duplicate, unexpected sender, ...).
  void add(const std::string& why);
  // A connection that did not prove it belongs to this run.
  void add_stranger(const std::string& why);
  // "3 unauthenticated connections rejected, 1 authenticated peer stream refused"; "" when none.
  std::string summary() const;
};

// What a connection must show to be let in.
struct Admission {
  uint64_t test_id = 0;
  uint32_t receiver = 0;  // this listener's id: the response covers it, so it names the direction
  StreamKind kind = StreamKind::bandwidth;
  double timeout_s = 5.0;  // from accept to a verified response
};

class Acceptor {
 public:
  // Connections still in their handshake, at most.
  static constexpr size_t kMaxPending = 256;
  // Connections accepted per handle(), at most: a flood of connects can't starve the measurement.
  static constexpr int kAcceptBatch = 64;

  Acceptor(int listen_fd, const auth::Key& key, const Admission& admission);

  // Appends the listener's and the pending connections' pollfds; returns where they start.
  size_t add_pollfds(std::vector<pollfd>& fds) const;
  // Handles the slice that add_pollfds appended (same order); returns authenticated connections.
  std::vector<Accepted> handle(std::span<const pollfd> mine, Clock::time_point now);
  // Closes pending connections whose handshake did not complete in time.
  void expire(Clock::time_point now);
  // Every connection this listener waits for is in: the pending ones are closed, and from now on a
  // newcomer is closed as soon as it is accepted, each counted as a stranger with `why`. The measuring
  // loop then polls the listener alone, so strangers holding connections open cost it nothing.
  void close_to_newcomers(const std::string& why);
  bool admitting() const { return admitting_; }

  Rejections& rejections() { return rejected_; }
  const Rejections& rejections() const { return rejected_; }

 private:
  struct Pending {
    net::Fd fd;
    net::Endpoint peer;
    std::vector<uint8_t> got;  // the hello so far, then the response so far
    Clock::time_point accepted;
    Clock::time_point deadline;
    std::optional<Hello> hello;  // set once the hello checked out and the challenge went out
    auth::Nonce nonce{};
  };
  enum class Step { waiting, rejected, authenticated };

  Step advance(Pending& p);
  Step take_hello(Pending& p);
  Step take_response(Pending& p);
  void accept_some(Clock::time_point now);
  void make_room(Clock::time_point now);

  int listen_fd_;
  auth::Key key_;
  Admission admission_;
  Clock::duration timeout_;
  std::vector<Pending> pending_;  // in arrival order
  Rejections rejected_;
  bool admitting_ = true;
  std::string closed_why_;
};

}  // namespace gpunet::bench::tcp
