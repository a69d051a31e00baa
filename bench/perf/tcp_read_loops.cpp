// Yardstick (not a test) for bench/perf/tcp_read_loops.sh: one loopback TCP flow between a plain
// sender and a receiver that reads in one of several ways, to see what each way of reading costs the
// sending core. The sender writes 128 KiB blocks with blocking write() for a second untimed, then for
// SECONDS timed, and prints its CPU time (getrusage) per GB sent and its rate.
//   tcp_read_loops recv PORT LOOP      LOOP: blocking | blocking-stamped | poll-nonblocking-drain |
//                                            poll-nonblocking-drain-stamped | poll-blocking-once |
//                                            poll-blocking-once-stamped
//   tcp_read_loops send PORT SECONDS
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr size_t kBlock = 128 << 10;

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double cpu_seconds() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
         static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6;
}

sockaddr_in loopback(int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

ssize_t read_once(int fd, std::vector<char>& buf, bool stamped) {
  if (!stamped) return ::read(fd, buf.data(), buf.size());
  iovec iov{buf.data(), buf.size()};
  alignas(cmsghdr) char control[64];
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = control;
  m.msg_controllen = sizeof control;
  return ::recvmsg(fd, &m, 0);
}

// Reads until the sender closes; returns the bytes received.
long long receive(int fd, const std::string& loop) {
  const bool stamped = loop.ends_with("-stamped");
  const bool poll_first = loop.starts_with("poll-");
  const bool drain = loop.starts_with("poll-nonblocking-drain");
  if (stamped) {
    const int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
  }
  if (drain) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
  std::vector<char> buf(kBlock);
  long long total = 0;
  for (;;) {
    if (poll_first) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 10) <= 0) continue;
    }
    for (int k = 0; k < (drain ? 16 : 1); ++k) {
      const ssize_t n = read_once(fd, buf, stamped);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (n <= 0) return total;
      total += n;
    }
  }
}

int usage() {
  std::fprintf(stderr, "usage: tcp_read_loops recv PORT LOOP | send PORT SECONDS\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return usage();
  const std::string role = argv[1];
  const sockaddr_in addr = loopback(std::atoi(argv[2]));
  if (role == "recv") {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(listener, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 || listen(listener, 1) != 0) {
      std::perror("tcp_read_loops: bind/listen");
      return 1;
    }
    const int fd = accept(listener, nullptr, nullptr);
    if (fd < 0) return 1;
    receive(fd, argv[3]);
    return 0;
  }
  if (role != "send") return usage();
  const double seconds = std::atof(argv[3]);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    std::perror("tcp_read_loops: connect");
    return 1;
  }
  std::vector<char> block(kBlock);
  for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>(i);
  for (const double t0 = seconds_now(); seconds_now() - t0 < 1.0;) (void)!write(fd, block.data(), block.size());
  const double cpu0 = cpu_seconds(), t1 = seconds_now();
  long long sent = 0;
  while (seconds_now() - t1 < seconds) {
    const ssize_t n = write(fd, block.data(), block.size());
    if (n <= 0) break;
    sent += n;
  }
  const double wall = seconds_now() - t1, cpu = cpu_seconds() - cpu0;
  std::printf("%.2f Gb/s, sender %.1f ms CPU per GB\n", static_cast<double>(sent) * 8 / wall / 1e9,
              cpu * 1e3 / (static_cast<double>(sent) / 1e9));
  close(fd);
  return 0;
}
