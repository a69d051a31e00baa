// Helpers for the engine tests: everything on 127.0.0.1.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "bench/core/auth/hmac.hpp"
#include "bench/suites/tcp/bandwidth.hpp"
#include "bench/suites/tcp/hello.hpp"
#include "bench/net/socket.hpp"

namespace tcptest {

using namespace gpunet::bench::tcp;
using namespace gpunet::bench::net;

inline IpAddress loopback() { return *parse_ip("127.0.0.1"); }

// A run key made from a seed: different seeds, different keys.
inline gpunet::auth::Key key_of(uint8_t seed) {
  gpunet::auth::Key k{};
  for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(seed * 31 + i);
  return k;
}

// A blocking client socket connected to ep (for strays and hand-made peers).
inline Fd raw_connect(const Endpoint& ep) {
  Fd fd(::socket(AF_INET, SOCK_STREAM, 0));
  sockaddr_in sin{};
  sin.sin_family = AF_INET;
  sin.sin_port = htons(ep.port);
  std::memcpy(&sin.sin_addr, ep.ip.bytes.data(), 4);
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&sin), sizeof sin) != 0) fd.reset();
  return fd;
}

// Reads exactly len bytes from a non-blocking or blocking socket; false when it closes (or is
// reset) first, or nothing comes for 3 s.
inline bool recv_exactly(const Fd& fd, uint8_t* buf, size_t len) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  size_t got = 0;
  while (fd && got < len && std::chrono::steady_clock::now() < until) {
    const ssize_t n = ::recv(fd.get(), buf + got, len - got, MSG_DONTWAIT);
    if (n > 0) got += static_cast<size_t>(n);
    else if (n == 0 || !would_block(errno)) return false;
    else std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return got == len;
}

// A quick bandwidth test: `bytes` per flow (0: by duration), short timeouts.
inline BandwidthParams quick(int64_t bytes, int streams = 1) {
  BandwidthParams p;
  p.bytes = bytes;
  p.streams = streams;
  p.msg_bytes = 64 << 10;
  p.connect_timeout_s = 2;
  p.io_timeout_s = 2;
  return p;
}

inline FlowPlan sender_plan(uint32_t self, uint32_t to, const Endpoint& listener, uint64_t test = 1) {
  FlowPlan p;
  p.test_id = test;
  p.self = self;
  p.source = loopback();
  p.send_to.push_back({to, listener});
  return p;
}

inline FlowPlan sender_plan(uint32_t self, uint32_t to, const Listener& l, uint64_t test = 1) {
  return sender_plan(self, to, l.endpoint(), test);
}

inline FlowPlan receiver_plan(uint32_t self, uint32_t from, uint64_t test = 1) {
  FlowPlan p;
  p.test_id = test;
  p.self = self;
  p.source = loopback();
  p.receive_from.push_back(from);
  return p;
}

inline double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace tcptest
