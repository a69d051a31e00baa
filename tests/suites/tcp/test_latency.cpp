// The ping-pong over loopback.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "bench/suites/tcp/latency.hpp"
#include "bench/suites/tcp/timeline.hpp"
#include "loopback.hpp"

using namespace gpunet::bench::tcp;
using namespace gpunet::bench::net;
using gpunet::report::Status;
using namespace tcptest;

namespace {
LatencyParams quick() {
  LatencyParams p;
  p.warmup = 50;
  p.duration_s = 0.3;
  p.max_iters = 2000;
  p.connect_timeout_s = 1;
  p.io_timeout_s = 1;
  return p;
}
}  // namespace

TEST(TcpLatency, PingPongCountsAndStats) {
  Listener l(loopback(), {});
  const auto key = key_of(1);
  auto p = quick();
  p.msg_bytes = 100;
  auto srv = std::async(std::launch::async, [&] { return run_latency_server(l, key, PingPong{4, 0, 1}, p); });
  const auto c = run_latency_client(l.endpoint(), loopback(), key, PingPong{4, 0, 1}, p);
  const auto s = srv.get();
  ASSERT_EQ(c.status, Status::passed) << c.reason;
  ASSERT_EQ(s.status, Status::passed) << s.reason;
  EXPECT_EQ(c.wrong, 0);
  ASSERT_GT(c.rtt_us.size(), 10u);
  EXPECT_LE(c.rtt_us.size(), 2000u);
  // Every round trip (warm-up too) was echoed in full.
  EXPECT_EQ(s.bytes, static_cast<int64_t>(c.rtt_us.size() + 50) * 100);
  const auto sum = summarize_latency(c.rtt_us);
  EXPECT_GT(sum.min, 0);
  EXPECT_LE(sum.p50, sum.p90);
  EXPECT_LE(sum.p90, sum.p99);
  EXPECT_LE(sum.p99, sum.p999);
  EXPECT_LE(sum.p999, sum.max);
  EXPECT_GT(c.tcp_info.rtt_us, 0u);
}

TEST(TcpLatency, MaxIterationsBoundTheSamples) {
  Listener l(loopback(), {});
  const auto key = key_of(2);
  auto p = quick();
  p.max_iters = 123;
  p.duration_s = 30;  // the count ends it first
  auto srv = std::async(std::launch::async, [&] { return run_latency_server(l, key, PingPong{1, 0, 1}, p); });
  const auto c = run_latency_client(l.endpoint(), loopback(), key, PingPong{1, 0, 1}, p);
  EXPECT_EQ(srv.get().status, Status::passed);
  ASSERT_EQ(c.status, Status::passed) << c.reason;
  EXPECT_EQ(c.rtt_us.size(), 123u);
}

TEST(TcpLatency, WrongKeyIsRefused) {
  Listener l(loopback(), {});
  auto p = quick();
  p.connect_timeout_s = 0.3;
  auto srv = std::async(std::launch::async, [&] { return run_latency_server(l, key_of(3), PingPong{1, 0, 1}, p); });
  const auto c = run_latency_client(l.endpoint(), loopback(), key_of(4), PingPong{1, 0, 1}, p);
  const auto s = srv.get();
  EXPECT_EQ(c.status, Status::failed);
  EXPECT_NE(c.reason.find("did not accept the answer to its challenge"), std::string::npos) << c.reason;
  EXPECT_EQ(s.status, Status::failed);  // its client never came
  EXPECT_EQ(s.rejected.count, 1);
  EXPECT_EQ(s.rejected.unauthenticated, 1);
  ASSERT_EQ(s.rejected.first.size(), 1u);
  EXPECT_NE(s.rejected.first[0].find("wrong answer to the challenge"), std::string::npos) << s.rejected.first[0];
}

TEST(TcpLatency, GarbageDuringPingPongDoesNotDisturbIt) {
  Listener l(loopback(), {});
  const auto key = key_of(5);
  auto p = quick();
  p.duration_s = 1.5;  // the garbage at 0.2 s lands well inside it, even on a slow machine
  p.max_iters = 1'000'000;
  auto srv = std::async(std::launch::async, [&] { return run_latency_server(l, key, PingPong{2, 0, 1}, p); });
  auto cli = std::async(std::launch::async, [&] { return run_latency_client(l.endpoint(), loopback(), key, PingPong{2, 0, 1}, p); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  Fd g = raw_connect(l.endpoint());
  ASSERT_TRUE(g);
  const std::string junk = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  ASSERT_GT(::send(g.get(), junk.data(), junk.size(), MSG_NOSIGNAL), 0);
  const auto c = cli.get();
  const auto s = srv.get();
  ASSERT_EQ(c.status, Status::passed) << c.reason;
  ASSERT_EQ(s.status, Status::passed) << s.reason;
  EXPECT_EQ(c.wrong, 0);
  EXPECT_EQ(s.rejected.count, 1);
}

TEST(TcpLatency, ClientTimesOutWithoutEchoes) {
  const auto key = key_of(6);
  Listener l(loopback(), {});
  // A server that completes the handshake and then never echoes.
  auto mute = std::async(std::launch::async, [&] {
    Fd conn;
    for (int i = 0; i < 200 && !conn; ++i) {
      conn = accept_one(l.fd(), nullptr);
      if (!conn) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::array<uint8_t, kHelloBytes> hello{};
    recv_exactly(conn, hello.data(), hello.size());
    const auto challenge = encode_challenge(gpunet::auth::Nonce{});
    ::send(conn.get(), challenge.data(), challenge.size(), 0);
    std::array<uint8_t, kResponseBytes> response{};
    recv_exactly(conn, response.data(), response.size());
    const auto ack = encode_ack();
    ::send(conn.get(), ack.data(), ack.size(), 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(900));
  });
  auto p = quick();
  p.io_timeout_s = 0.4;
  const auto t0 = std::chrono::steady_clock::now();
  const auto c = run_latency_client(l.endpoint(), loopback(), key, PingPong{1, 0, 1}, p);
  EXPECT_EQ(c.status, Status::timed_out);
  EXPECT_NE(c.reason.find("no echo within 0.4 s"), std::string::npos) << c.reason;
  EXPECT_LT(since(t0), 2.0);
  mute.get();
}
