// The project's own TCP sockets: an owning descriptor, a listener bound to one address on an
// ephemeral port, non-blocking connects from a chosen source address, socket options, TCP_INFO.
// Setup failures throw std::system_error whose text names the call and the address.
#pragma once

#include <cerrno>

#include <cstdint>
#include <optional>
#include <string>

#include "bench/net/address.hpp"

namespace gpunet::bench::net {

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();
  int get() const { return fd_; }
  int release();
  void reset();
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

struct Endpoint {
  IpAddress ip;
  uint16_t port = 0;
  std::string to_string() const;  // 10.0.0.1:5201, [fd00::1]:5201
};

struct SocketOptions {
  int sndbuf = 0;        // SO_SNDBUF bytes; 0 = kernel default (autotuning)
  int rcvbuf = 0;        // SO_RCVBUF bytes; 0 = kernel default (autotuning)
  bool nodelay = false;  // TCP_NODELAY
};

// A listening socket bound only to `ip`, port chosen by the kernel; non-blocking.
class Listener {
 public:
  Listener(const IpAddress& ip, const SocketOptions& opt);
  int fd() const { return fd_.get(); }
  const Endpoint& endpoint() const { return endpoint_; }
  const SocketOptions& options() const { return options_; }

 private:
  Fd fd_;
  Endpoint endpoint_;
  SocketOptions options_;
};

void set_nonblocking(int fd);
// Makes fd blocking, every send and recv bounded by timeout_s (SO_SNDTIMEO / SO_RCVTIMEO): a read
// that waits in the kernel and wakes only for data, for the latency path.
void set_blocking_with_timeout(int fd, double timeout_s);
void apply_options(int fd, const SocketOptions& opt);

// Non-blocking connect from `from` (port 0) to `to`; the connect may still be in progress.
Fd start_connect(const Endpoint& to, const IpAddress& from, const SocketOptions& opt);
// 0 when a finished non-blocking connect succeeded, else its errno (SO_ERROR).
int connect_error(int fd);

// Accepts one pending connection, non-blocking; empty Fd when none is waiting.
Fd accept_one(int listen_fd, Endpoint* peer);

struct TcpInfo {
  uint32_t total_retrans = 0;  // segments retransmitted over the connection's life
  uint32_t rtt_us = 0, rttvar_us = 0;
  uint32_t snd_cwnd = 0;       // segments
  uint32_t snd_mss = 0, pmtu = 0;
  bool timestamps = false;     // TCP timestamps negotiated
  uint64_t bytes_acked = 0, bytes_retrans = 0;
};
std::optional<TcpInfo> read_tcp_info(int fd);

// Asks the kernel to stamp the data it receives on fd (SO_TIMESTAMPNS); false if it can't.
bool enable_rx_timestamps(int fd);
// recv() that also gives the kernel's receive time (CLOCK_REALTIME, seconds) of the data read, when
// stamped: the arrival time of the data, not the time this process got around to reading it.
ssize_t recv_stamped(int fd, void* buf, size_t len, std::optional<double>& stamp_s);
// CLOCK_REALTIME now, seconds (the clock of the receive stamps).
double realtime_now_s();

std::string errno_text(int err);
// EAGAIN, EWOULDBLOCK or EINTR: try again later.
inline bool would_block(int err) { return err == EAGAIN || err == EWOULDBLOCK || err == EINTR; }
// "2.5 s", for timeout messages.
std::string seconds_text(double s);

}  // namespace gpunet::bench::net
