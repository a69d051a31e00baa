// The control channel's sockets: one TCP connection from every rank to rank 0, opened at start and
// authenticated by challenge and response (bench/core/auth) with a per-run key handed out over MPI.
// Nothing here calls MPI.
//  - Link: one authenticated connection. The service thread reads it; any thread may send on it
//    (non-blocking; what the socket does not take at once waits in the link until flush()).
//  - accept_members: rank 0 admits one connection per member rank, drops strangers.
//  - connect_to_hub: a member connects and answers the challenge.
#pragma once

#include <memory>
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
// Admits one authenticated connection from each rank 1..size-1 on listen_fd (non-blocking) within
// timeout_s; a connection that does not answer within hello_timeout_s is dropped. Throws
// std::runtime_error naming the ranks that did not connect.
Members accept_members(int listen_fd, const auth::Key& key, int size, double timeout_s, double hello_timeout_s);

// Connects to rank 0 and answers its challenge; throws std::runtime_error when that fails.
std::unique_ptr<Link> connect_to_hub(const net::Endpoint& hub, const auth::Key& key, int rank, double timeout_s);

}  // namespace gpunet::bench::control
