// The control channel's sockets: one TCP connection from every rank to rank 0, opened at start and
// authenticated by challenge and response (bench/core/auth) with a per-run key handed out over MPI.
// Nothing here calls MPI.
//  - Link: one authenticated connection. The service thread reads it; any thread may send on it
//    (non-blocking; what the socket does not take at once waits in the link until flush()).
//  - accept_members: rank 0 admits one connection per member rank, drops strangers.
//  - connect_to_hub: a member connects and answers the challenge, retrying a refused or reset connect.
#pragma once

#include <memory>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/core/auth/hmac.hpp"
#include "bench/core/control_frame.hpp"
#include "bench/net/socket.hpp"

namespace gpunet::bench::control {

class Link {
 public:
  explicit Link(net::Fd fd, FrameReader reader = {});
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  int fd() const { return fd_.get(); }
  // Queues the frame and sends what the socket takes now. False once the connection has failed.
  bool send(char type, std::string_view payload = {});
  // Sends what waits; false once the connection has failed.
  bool flush();
  bool pending() const;
  // Reads what has arrived and appends its whole frames; false when the peer closed the connection,
  // it failed, or its byte stream is not frames.
  bool read_available(std::vector<Frame>& out);
  void close();

 private:
  bool flush_locked();

  net::Fd fd_;
  FrameReader reader_;  // service thread only
  mutable std::mutex mu_;
  std::string out_;
  bool failed_ = false;
};

// The verdict on one answer to a challenge: the member's rank, or why it is refused.
struct Admission {
  int rank = -1;
  std::string refused;  // empty when admitted
};
Admission judge_answer(const auth::Key& key, const auth::Nonce& nonce, std::string_view answer_payload, int size,
                       const std::vector<bool>& admitted);

struct Members {
  std::vector<std::unique_ptr<Link>> links;  // by rank; [0] is empty
  int rejected = 0;                          // connections refused (strangers, wrong answers, silence)
};
// The handshakes rank 0 runs at once (pure): every rank of a large job may connect together, so not a
// fixed 256. Connections beyond it wait in the listen queue until a handshake ends; none is dropped.
size_t handshake_slots(int size);

// Admits one authenticated connection from each rank 1..size-1 on listen_fd (non-blocking) within
// timeout_s; a connection that does not answer within hello_timeout_s is dropped. At most max_pending
// handshakes run at once (0: handshake_slots(size)). Throws std::runtime_error naming the ranks that
// did not connect, or at once when rank 0 runs out of file descriptors.
Members accept_members(int listen_fd, const auth::Key& key, int size, double timeout_s, double hello_timeout_s,
                       size_t max_pending = 0);

// A refused or reset connect, or one closed before the challenge, is tried again after
// connect_retry_delay_s (50 ms doubling to 1 s, spread by rank so that refused ranks do not return
// together) for at most kConnectRetryWindow_s; a refusal of the answer is not retried.
inline constexpr double kConnectRetryFirst_s = 0.05;
inline constexpr double kConnectRetryCap_s = 1.0;
inline constexpr double kConnectRetryWindow_s = 15.0;
// Whether a connect that failed with this errno may be tried again (pure).
bool connect_retryable(int err);
// The wait after the attempt-th failed try (0-based) of `rank` (pure): within 0.75-1.25 x min(50 ms x 2^attempt, 1 s).
double connect_retry_delay_s(int attempt, int rank);

// Connects to rank 0 and answers its challenge, retrying as above; throws std::runtime_error when that fails.
std::unique_ptr<Link> connect_to_hub(const net::Endpoint& hub, const auth::Key& key, int rank, double timeout_s);

}  // namespace gpunet::bench::control
