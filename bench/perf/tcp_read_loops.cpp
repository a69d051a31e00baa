// Yardstick (not a test) for bench/perf/tcp_read_loops.sh: one loopback TCP flow between a plain
// sender and a receiver that reads in one of several ways, to see what each way of reading (and, with
// two streams, of writing) costs the sending core. The sender writes 128 KiB blocks for a second
// untimed, then for SECONDS timed, and prints its CPU time (getrusage) per GB sent and its rate.
//   tcp_read_loops recv PORT LOOP [STREAMS]   LOOP: blocking | blocking-stamped | poll-nonblocking-drain |
//                                             poll-nonblocking-drain-stamped | poll-blocking-once |
//                                             poll-blocking-once-stamped (with STREAMS > 1: the poll- loops)
//   tcp_read_loops send PORT SECONDS [STREAMS [WRITES]]
//                                             WRITES: blocking (in turns, no poll; default) |
//                                             poll-blocking (poll, then up to 16 turns of blocking writes) |
//                                             poll-nonblocking-drain (poll, then up to 16 sends a stream until EAGAIN)
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
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

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK); }

// Reads every stream until its sender closes.
void receive(std::vector<pollfd> fds, const std::string& loop) {
  const bool stamped = loop.ends_with("-stamped");
  const bool poll_first = loop.starts_with("poll-") || fds.size() > 1;
  const bool drain = loop.starts_with("poll-nonblocking-drain");
  for (const pollfd& p : fds) {
    if (stamped) {
      const int on = 1;
      setsockopt(p.fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
    }
    if (drain) set_nonblocking(p.fd);
  }
  std::vector<char> buf(kBlock);
  for (size_t open = fds.size(); open > 0;) {
    if (poll_first && poll(fds.data(), fds.size(), 10) <= 0) continue;
    for (pollfd& p : fds) {
      if (p.fd < 0 || (poll_first && !p.revents)) continue;
      for (int k = 0; k < (drain ? 16 : 1); ++k) {
        const ssize_t n = read_once(p.fd, buf, stamped);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n <= 0) {
          close(p.fd);
          p.fd = -1;
          --open;
          break;
        }
      }
    }
  }
}

// Writes to every stream until `seconds` have passed; returns the bytes written.
long long send_for(const std::vector<int>& fds, const std::vector<char>& block, double seconds, const std::string& writes) {
  long long sent = 0;
  const double start = seconds_now();
  if (writes == "blocking") {
    while (seconds_now() - start < seconds)
      for (const int fd : fds) sent += std::max<ssize_t>(0, write(fd, block.data(), block.size()));
    return sent;
  }
  const bool drain = writes == "poll-nonblocking-drain";
  std::vector<pollfd> polled;
  for (const int fd : fds) {
    if (drain) set_nonblocking(fd);
    polled.push_back({fd, POLLOUT, 0});
  }
  while (seconds_now() - start < seconds) {
    poll(polled.data(), polled.size(), 10);
    if (drain) {
      for (const pollfd& p : polled)
        for (int k = 0; k < 16 && (p.revents & POLLOUT); ++k) {
          const ssize_t n = send(p.fd, block.data(), block.size(), MSG_DONTWAIT);
          if (n < 0) break;
          sent += n;
        }
    } else {
      for (int k = 0; k < 16; ++k)
        for (const pollfd& p : polled)
          if (p.revents & POLLOUT) sent += std::max<ssize_t>(0, write(p.fd, block.data(), block.size()));
    }
  }
  return sent;
}

int usage() {
  std::fprintf(stderr, "usage: tcp_read_loops recv PORT LOOP [STREAMS] | send PORT SECONDS [STREAMS [WRITES]]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 6) return usage();
  const std::string role = argv[1];
  const sockaddr_in addr = loopback(std::atoi(argv[2]));
  const int streams = argc > 4 ? std::max(1, std::atoi(argv[4])) : 1;
  if (role == "recv") {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(listener, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 || listen(listener, streams) != 0) {
      std::perror("tcp_read_loops: bind/listen");
      return 1;
    }
    std::vector<pollfd> fds;
    for (int i = 0; i < streams; ++i) {
      const int fd = accept(listener, nullptr, nullptr);
      if (fd < 0) return 1;
      fds.push_back({fd, POLLIN, 0});
    }
    receive(fds, argv[3]);
    return 0;
  }
  if (role != "send") return usage();
  const double seconds = std::atof(argv[3]);
  const std::string writes = argc > 5 ? argv[5] : "blocking";
  std::vector<int> fds;
  for (int i = 0; i < streams; ++i) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
      std::perror("tcp_read_loops: connect");
      return 1;
    }
    fds.push_back(fd);
  }
  std::vector<char> block(kBlock);
  for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>(i);
  send_for(fds, block, 1.0, writes);  // untimed: slow start, buffers grown
  const double cpu0 = cpu_seconds(), t1 = seconds_now();
  const long long sent = send_for(fds, block, seconds, writes);
  const double wall = seconds_now() - t1, cpu = cpu_seconds() - cpu0;
  std::printf("%.2f Gb/s, sender %.1f ms CPU per GB\n", static_cast<double>(sent) * 8 / wall / 1e9,
              cpu * 1e3 / (static_cast<double>(sent) / 1e9));
  for (const int fd : fds) close(fd);
  return 0;
}
