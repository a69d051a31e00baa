#include "bench/net/socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>

#include <cerrno>
#include <ctime>
#include <cstring>
#include <system_error>

namespace gpunet::bench::net {

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    reset();
    fd_ = o.release();
  }
  return *this;
}

Fd::~Fd() { reset(); }

int Fd::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string errno_text(int err) { return std::strerror(err); }

std::string Endpoint::to_string() const {
  const std::string host = ip.to_string();
  return (ip.family == AF_INET6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

socklen_t to_sockaddr(const IpAddress& ip, uint16_t port, sockaddr_storage& ss) {
  std::memset(&ss, 0, sizeof ss);
  if (ip.family == AF_INET) {
    sockaddr_in sin{};
    sin.sin_family = AF_INET;
    sin.sin_port = htons(port);
    std::memcpy(&sin.sin_addr, ip.bytes.data(), 4);
    std::memcpy(&ss, &sin, sizeof sin);
    return sizeof sin;
  }
  sockaddr_in6 sin6{};
  sin6.sin6_family = AF_INET6;
  sin6.sin6_port = htons(port);
  std::memcpy(&sin6.sin6_addr, ip.bytes.data(), 16);
  std::memcpy(&ss, &sin6, sizeof sin6);
  return sizeof sin6;
}

Endpoint from_sockaddr(const sockaddr_storage& ss) {
  Endpoint e;
  if (ss.ss_family == AF_INET) {
    sockaddr_in sin{};
    std::memcpy(&sin, &ss, sizeof sin);
    e.ip.family = AF_INET;
    std::memcpy(e.ip.bytes.data(), &sin.sin_addr, 4);
    e.port = ntohs(sin.sin_port);
  } else if (ss.ss_family == AF_INET6) {
    sockaddr_in6 sin6{};
    std::memcpy(&sin6, &ss, sizeof sin6);
    e.ip.family = AF_INET6;
    std::memcpy(e.ip.bytes.data(), &sin6.sin6_addr, 16);
    e.port = ntohs(sin6.sin6_port);
  }
  return e;
}

void set_int(int fd, int level, int opt, int value, const char* name) {
  if (::setsockopt(fd, level, opt, &value, sizeof value) != 0) fail(std::string("setsockopt ") + name);
}

}  // namespace

void set_nonblocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL, 0);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) fail("fcntl O_NONBLOCK");
}

void set_blocking_with_timeout(int fd, double timeout_s) {
  const int flags = ::fcntl(fd, F_GETFL, 0);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) fail("fcntl ~O_NONBLOCK");
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout_s);
  tv.tv_usec = static_cast<suseconds_t>((timeout_s - static_cast<double>(tv.tv_sec)) * 1e6);
  if (tv.tv_sec == 0 && tv.tv_usec == 0) tv.tv_usec = 1000;
  if (::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0) fail("setsockopt SO_RCVTIMEO");
  if (::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0) fail("setsockopt SO_SNDTIMEO");
}

void apply_options(int fd, const SocketOptions& opt) {
  if (opt.sndbuf > 0) set_int(fd, SOL_SOCKET, SO_SNDBUF, opt.sndbuf, "SO_SNDBUF");
  if (opt.rcvbuf > 0) set_int(fd, SOL_SOCKET, SO_RCVBUF, opt.rcvbuf, "SO_RCVBUF");
  if (opt.nodelay) set_int(fd, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY");
}

Listener::Listener(const IpAddress& ip, const SocketOptions& opt) : options_(opt) {
  fd_ = Fd(::socket(ip.family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd_) fail("socket");
  apply_options(fd_.get(), opt);  // SO_RCVBUF before listen(): the window scale is fixed at the handshake
  if (ip.family == AF_INET6) set_int(fd_.get(), IPPROTO_IPV6, IPV6_V6ONLY, 1, "IPV6_V6ONLY");
  sockaddr_storage ss{};
  const socklen_t len = to_sockaddr(ip, 0, ss);
  if (::bind(fd_.get(), reinterpret_cast<sockaddr*>(&ss), len) != 0) fail("bind " + ip.to_string());
  // A deep accept queue: connections queued behind a flood of strangers still get in, not dropped.
  if (::listen(fd_.get(), 1024) != 0) fail("listen " + ip.to_string());
  sockaddr_storage bound{};
  socklen_t blen = sizeof bound;
  if (::getsockname(fd_.get(), reinterpret_cast<sockaddr*>(&bound), &blen) != 0) fail("getsockname");
  endpoint_ = from_sockaddr(bound);
}

Fd start_connect(const Endpoint& to, const IpAddress& from, const SocketOptions& opt) {
  Fd fd(::socket(to.ip.family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd) fail("socket");
  apply_options(fd.get(), opt);
  if (from.family != 0) {
    sockaddr_storage src{};
    const socklen_t slen = to_sockaddr(from, 0, src);
    if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&src), slen) != 0) fail("bind source " + from.to_string());
  }
  sockaddr_storage dst{};
  const socklen_t dlen = to_sockaddr(to.ip, to.port, dst);
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&dst), dlen) != 0 && errno != EINPROGRESS)
    fail("connect " + to.to_string());
  return fd;
}

int connect_error(int fd) {
  int err = 0;
  socklen_t len = sizeof err;
  if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) return errno;
  return err;
}

Fd accept_one(int listen_fd, Endpoint* peer) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  const int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&ss), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (fd < 0) return Fd();
  if (peer) *peer = from_sockaddr(ss);
  return Fd(fd);
}

std::optional<TcpInfo> read_tcp_info(int fd) {
  tcp_info ti{};
  socklen_t len = sizeof ti;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0) return std::nullopt;
  TcpInfo out;
  out.total_retrans = ti.tcpi_total_retrans;
  out.rtt_us = ti.tcpi_rtt;
  out.rttvar_us = ti.tcpi_rttvar;
  out.snd_cwnd = ti.tcpi_snd_cwnd;
  out.snd_mss = ti.tcpi_snd_mss;
  out.pmtu = ti.tcpi_pmtu;
  out.timestamps = (ti.tcpi_options & TCPI_OPT_TIMESTAMPS) != 0;
  out.bytes_acked = ti.tcpi_bytes_acked;
  out.bytes_retrans = ti.tcpi_bytes_retrans;
  return out;
}

bool enable_rx_timestamps(int fd) {
  const int on = 1;
  return ::setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) == 0;
}

ssize_t recv_stamped(int fd, void* buf, size_t len, std::optional<double>& stamp_s) {
  iovec iov{buf, len};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  const ssize_t n = ::recvmsg(fd, &msg, 0);
  stamp_s.reset();
  if (n <= 0) return n;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS && c->cmsg_len >= CMSG_LEN(sizeof(timespec))) {
      timespec ts{};
      std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
      if (ts.tv_sec != 0) stamp_s = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    }
  }
  return n;
}

double realtime_now_s() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

}  // namespace gpunet::bench::net
