// Helpers for the engine tests: everything on 127.0.0.1.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "bench/tcp/hello.hpp"
#include "bench/tcp/socket.hpp"

namespace tcptest {

using namespace gpunet::bench::tcp;

inline IpAddress loopback() { return *parse_ip("127.0.0.1"); }

inline Secret secret_of(uint8_t seed) {
  Secret s{};
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<uint8_t>(seed * 31 + i);
  return s;
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

inline double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace tcptest
