// Strangers on the data network, over loopback: someone who sees every byte a real sender sends
// (a tap between it and its listener) replays a whole exchange, forges hellos for the next tests,
// and floods listeners with idle and garbage connections while real flows run. No stranger gets
// in, none of their bytes reach a result, and every real flow still measures.
#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "bench/suites/tcp/bandwidth.hpp"
#include "bench/suites/tcp/latency.hpp"
#include "loopback.hpp"
#include "tap.hpp"

using namespace gpunet::bench::tcp;
using namespace gpunet::bench::net;
using gpunet::report::Status;
using namespace tcptest;
namespace auth = gpunet::auth;

namespace {

// One stream's handshake and first data, as the tap saw them.
struct Exchange {
  std::vector<uint8_t> hello, response, data;  // connector -> listener
  std::vector<uint8_t> challenge, ack;         // listener -> connector
};

std::vector<uint8_t> slice(const std::vector<uint8_t>& v, size_t at, size_t len) {
  if (at >= v.size()) return {};
  return {v.begin() + static_cast<std::ptrdiff_t>(at),
          v.begin() + static_cast<std::ptrdiff_t>(std::min(v.size(), at + len))};
}

// A real 1 MiB flow, sender 0 -> receiver 1 in test `test`, through a tap.
Exchange capture_exchange(const auth::Key& key, uint64_t test) {
  Listener recv_l(loopback(), {}), send_l(loopback(), {});
  Tap tap(recv_l.endpoint());
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key, receiver_plan(1, 0, test), quick(1 << 20)); });
  const auto tx = run_bandwidth(send_l, key, sender_plan(0, 1, tap.endpoint(), test), quick(1 << 20));
  const auto r = rx.get();
  tap.wait();
  EXPECT_EQ(tx.sent[0].status, Status::passed) << tx.sent[0].reason;
  EXPECT_EQ(r.received[0].status, Status::passed) << r.received[0].reason;
  EXPECT_EQ(r.received[0].bytes, 1 << 20);
  const auto& up = tap.to_listener();
  const auto& down = tap.to_connector();
  return {slice(up, 0, kHelloBytes), slice(up, kHelloBytes, kResponseBytes),
          slice(up, kHelloBytes + kResponseBytes, Tap::kKept), slice(down, 0, kChallengeBytes),
          slice(down, kChallengeBytes, kAckBytes)};
}

bool send_bytes(const Fd& fd, const std::vector<uint8_t>& bytes) {
  return ::send(fd.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
}

template <size_t N>
std::vector<uint8_t> vec(const std::array<uint8_t, N>& a) {
  return {a.begin(), a.end()};
}

// True once the other end has closed fd (end of file or reset), within `limit`.
bool closed_by_peer(const Fd& fd, std::chrono::steady_clock::time_point limit) {
  uint8_t buf[256];
  while (std::chrono::steady_clock::now() < limit) {
    pollfd p{fd.get(), POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    const ssize_t n = ::recv(fd.get(), buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && !would_block(errno))) return true;
  }
  return false;
}

// Connections that strangers open at a listener and keep open until the listener drops them.
class Strangers {
 public:
  explicit Strangers(Endpoint target) : target_(target) {}

  // `idle` connections that say nothing, and `garbage` ones that say something wrong: text, a
  // hello's magic and junk, a well-formed hello for `test` and a blind junk answer, a hello and
  // then silence past the challenge... in turn.
  void flood(int idle, int garbage, uint64_t test, StreamKind kind) {
    for (int i = 0; i < idle; ++i) open();
    for (int i = 0; i < garbage; ++i) {
      Fd& fd = open();
      if (!fd) continue;
      Hello h;
      h.test_id = test;
      h.kind = kind;
      std::vector<uint8_t> bytes = i % 4 < 2 ? text(i % 4 == 0 ? "GET / HTTP/1.1\r\nHost: x\r\n\r\n" : "GPNTCP02")
                                             : vec(encode_hello(h));
      if (i % 4 == 1) bytes.resize(kHelloBytes, 0xff);                   // the magic, then junk
      if (i % 4 == 2) bytes.resize(kHelloBytes + kResponseBytes, 0x5a);  // a hello, then a blind answer
      send_bytes(fd, bytes);  // the fourth kind: a hello, then silence
    }
  }
  size_t size() const { return fds_.size(); }
  // How many of them the listener has closed by `limit`.
  size_t closed_by(std::chrono::steady_clock::time_point limit) const {
    size_t n = 0;
    for (const auto& fd : fds_) n += closed_by_peer(fd, limit) ? 1 : 0;
    return n;
  }

 private:
  static std::vector<uint8_t> text(const std::string& s) { return {s.begin(), s.end()}; }
  Fd& open() {
    fds_.push_back(raw_connect(target_));
    EXPECT_TRUE(fds_.back()) << "connect to " << target_.to_string();
    return fds_.back();
  }
  Endpoint target_;
  std::vector<Fd> fds_;
};

std::string all_reasons(const Rejections& r) {
  std::string out;
  for (const auto& why : r.first) out += why + "\n";
  return out;
}

}  // namespace

TEST(TcpStrangers, TheWireShowsNoKeyAndACompleteExchange) {
  const auto key = key_of(20);
  const Exchange seen = capture_exchange(key, 1);
  ASSERT_EQ(seen.hello.size(), kHelloBytes);
  ASSERT_EQ(seen.response.size(), kResponseBytes);
  ASSERT_EQ(seen.challenge.size(), kChallengeBytes);
  ASSERT_EQ(seen.ack.size(), kAckBytes);
  EXPECT_FALSE(seen.data.empty());
  EXPECT_TRUE(is_ack(seen.ack));
  // The key appears nowhere in what the connector sent.
  const std::vector<uint8_t> up = [&] {
    auto v = seen.hello;
    v.insert(v.end(), seen.response.begin(), seen.response.end());
    return v;
  }();
  EXPECT_EQ(std::search(up.begin(), up.end(), key.begin(), key.end()), up.end());
}

TEST(TcpStrangers, ReplayOfACapturedExchangeIsRefusedByALaterListener) {
  const auto key = key_of(21);
  const Exchange seen = capture_exchange(key, 1);
  const auto hello = decode_hello(seen.hello);
  const auto nonce = decode_challenge(seen.challenge);
  ASSERT_TRUE(hello);
  ASSERT_TRUE(nonce);
  EXPECT_EQ(hello->test_id, 1u);
  // The capture is a valid exchange: a listener that did not draw a fresh nonce would let it in.
  ASSERT_TRUE(response_ok(key, *nonce, *hello, 1, seen.response));

  // A later listener for the very same test, receiver and sender: only its nonce differs.
  Listener later(loopback(), {});
  auto p = quick(1 << 20);
  p.connect_timeout_s = 0.5;
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(later, key, receiver_plan(1, 0, 1), p); });
  Fd replay = raw_connect(later.endpoint());
  ASSERT_TRUE(replay);
  std::vector<uint8_t> all = seen.hello;  // the whole exchange, blindly, at once
  all.insert(all.end(), seen.response.begin(), seen.response.end());
  all.insert(all.end(), seen.data.begin(), seen.data.end());
  ASSERT_TRUE(send_bytes(replay, all));
  std::array<uint8_t, kChallengeBytes> fresh{};
  ASSERT_TRUE(recv_exactly(replay, fresh.data(), fresh.size()));
  ASSERT_TRUE(decode_challenge(fresh));
  EXPECT_NE(*decode_challenge(fresh), *nonce);
  std::array<uint8_t, kAckBytes> ack{};
  EXPECT_FALSE(recv_exactly(replay, ack.data(), ack.size()));  // closed, no ack

  const auto r = rx.get();
  EXPECT_EQ(r.received[0].status, Status::failed);  // its real sender never came
  EXPECT_EQ(r.received[0].bytes, 0);                // the replayed data reached no result
  EXPECT_EQ(r.rejected.count, 1);
  EXPECT_EQ(r.rejected.unauthenticated, 1);
  EXPECT_NE(all_reasons(r.rejected).find("wrong answer to the challenge"), std::string::npos) << all_reasons(r.rejected);
}

TEST(TcpStrangers, ForgedHellosForTheNextTestsAreRefusedAndTheRealSenderMeasures) {
  const auto key = key_of(22);
  const Exchange seen = capture_exchange(key, 1);
  const auto hello = decode_hello(seen.hello);
  ASSERT_TRUE(hello);
  for (const uint64_t next : {2u, 3u}) {
    SCOPED_TRACE("test " + std::to_string(next));
    Listener recv_l(loopback(), {}), send_l(loopback(), {});
    const auto p = quick(4 << 20);
    auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key, receiver_plan(1, 0, next), p); });
    // Before the real sender comes: hellos for this test, answered with the captured response and
    // with a guessed key, then the 5 MB a forger would like counted.
    Hello forged = *hello;
    forged.test_id = next;
    for (const bool guess : {false, true}) {
      Fd f = raw_connect(recv_l.endpoint());
      ASSERT_TRUE(f);
      set_blocking_with_timeout(f.get(), 5.0);
      ASSERT_TRUE(send_bytes(f, vec(encode_hello(forged))));
      std::array<uint8_t, kChallengeBytes> challenge{};
      ASSERT_TRUE(recv_exactly(f, challenge.data(), challenge.size()));
      const auto n = decode_challenge(challenge);
      ASSERT_TRUE(n);
      const auto answer = guess ? vec(respond_to(auth::Key{}, *n, forged, 1)) : seen.response;
      ASSERT_TRUE(send_bytes(f, answer));
      send_bytes(f, std::vector<uint8_t>(5 << 20, 'F'));  // may fail: the listener has closed
      EXPECT_TRUE(closed_by_peer(f, std::chrono::steady_clock::now() + std::chrono::seconds(5)));
    }
    const auto tx = run_bandwidth(send_l, key, sender_plan(0, 1, recv_l.endpoint(), next), p);
    const auto r = rx.get();
    ASSERT_EQ(tx.sent[0].status, Status::passed) << tx.sent[0].reason;
    ASSERT_EQ(r.received[0].status, Status::passed) << r.received[0].reason;
    EXPECT_EQ(r.received[0].bytes, 4 << 20);  // the real sender's bytes, exactly: none of the forger's
    EXPECT_EQ(tx.sent[0].bytes, 4 << 20);
    EXPECT_EQ(r.rejected.count, 2);
    EXPECT_EQ(r.rejected.unauthenticated, 2);
    EXPECT_EQ(r.rejected.summary(), "2 unauthenticated connections rejected");
    EXPECT_NE(all_reasons(r.rejected).find("wrong answer to the challenge"), std::string::npos) << all_reasons(r.rejected);
  }
}

TEST(TcpStrangers, FloodOfIdleAndGarbageConnectionsDoesNotDisturbARealFlow) {
  const auto key = key_of(23);
  Listener recv_l(loopback(), {}), send_l(loopback(), {});
  auto p = quick(0, 2);
  p.duration_s = 4.5;         // outlasts the strangers' handshake deadline with room for a slow machine
  p.connect_timeout_s = 1.5;  // also every stranger's handshake deadline
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key, receiver_plan(1, 0), p); });
  Strangers strangers(recv_l.endpoint());
  // More idle connections than the acceptor keeps in their handshake, before the real sender...
  strangers.flood(static_cast<int>(Acceptor::kMaxPending) + 44, 20, 1, StreamKind::bandwidth);
  auto tx = std::async(std::launch::async, [&] { return run_bandwidth(send_l, key, sender_plan(0, 1, recv_l), p); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  strangers.flood(40, 20, 1, StreamKind::bandwidth);  // ...and more while it sends
  // Every stranger is dropped within its deadline, long before the flow ends.
  EXPECT_EQ(strangers.closed_by(std::chrono::steady_clock::now() + std::chrono::seconds(10)), strangers.size());
  const bool flow_outlived_them = tx.wait_for(std::chrono::seconds(0)) != std::future_status::ready;

  const auto s = tx.get();
  const auto r = rx.get();
  ASSERT_EQ(s.sent[0].status, Status::passed) << s.sent[0].reason;
  ASSERT_EQ(r.received[0].status, Status::passed) << r.received[0].reason;
  EXPECT_GT(r.received[0].bytes, 0);
  EXPECT_GT(r.received[0].goodput_bps, 0);
  EXPECT_EQ(r.received[0].bytes, s.sent[0].bytes);  // every byte sent was counted, no stranger's
  ASSERT_EQ(r.received[0].stream_bytes.size(), 2u);
  EXPECT_EQ(r.received[0].stream_bytes[0] + r.received[0].stream_bytes[1], r.received[0].bytes);
  EXPECT_EQ(r.rejected.count, r.rejected.unauthenticated);  // strangers all: no peer stream was refused
  // At most a full table of them can still be waiting when the flow ends; the flow outlives their
  // deadline unless the machine stalled for seconds, and then every one of them is counted.
  EXPECT_GE(r.rejected.unauthenticated, static_cast<int64_t>(strangers.size() - Acceptor::kMaxPending));
  if (flow_outlived_them) {
    EXPECT_EQ(r.rejected.unauthenticated, static_cast<int64_t>(strangers.size()));
  }
  EXPECT_EQ(r.rejected.summary(), std::to_string(r.rejected.unauthenticated) + " unauthenticated connections rejected");
}

TEST(TcpStrangers, FloodAndForgeriesAtALatencyServerDoNotDisturbThePingPong) {
  const auto key = key_of(24);
  Listener l(loopback(), {});
  LatencyParams p;
  p.warmup = 50;
  p.duration_s = 2.5;  // outlasts the strangers' handshake deadline
  p.connect_timeout_s = 1.0;
  p.io_timeout_s = 2.0;
  const PingPong who{5, 0, 1};
  auto srv = std::async(std::launch::async, [&] { return run_latency_server(l, key, who, p); });
  auto cli = std::async(std::launch::async, [&] { return run_latency_client(l.endpoint(), loopback(), key, who, p); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  Strangers strangers(l.endpoint());
  strangers.flood(100, 20, who.test_id, StreamKind::latency);
  EXPECT_EQ(strangers.closed_by(std::chrono::steady_clock::now() + std::chrono::seconds(10)), strangers.size());
  const bool ping_pong_outlived_them = cli.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
  const auto c = cli.get();
  const auto s = srv.get();
  ASSERT_EQ(c.status, Status::passed) << c.reason;
  ASSERT_EQ(s.status, Status::passed) << s.reason;
  EXPECT_EQ(c.wrong, 0);
  EXPECT_GT(c.rtt_us.size(), 0u);
  // Exactly the client's messages were echoed: the strangers' bytes reached nothing.
  EXPECT_EQ(s.bytes, static_cast<int64_t>(c.rtt_us.size() + 50) * p.msg_bytes);
  EXPECT_EQ(s.rejected.count, s.rejected.unauthenticated);
  EXPECT_GE(s.rejected.unauthenticated, 20);
  if (ping_pong_outlived_them) {
    EXPECT_EQ(s.rejected.unauthenticated, static_cast<int64_t>(strangers.size()));
  }
}

// Once every expected stream is in, the listener alone is polled: the connections still in their
// handshake are closed, and a newcomer is closed as soon as it is accepted, each counted with the
// reason. A flood held open during a flow then costs the measuring loop nothing per wake-up.
TEST(TcpStrangers, ClosedToNewcomersPollsTheListenerAloneAndClosesEachArrival) {
  Listener l(loopback(), {});
  Acceptor acceptor(l.fd(), key_of(29), {7, 1, StreamKind::bandwidth, 5.0});
  Strangers early(l.endpoint());
  early.flood(3, 0, 7, StreamKind::bandwidth);
  const auto take_all = [&] {
    for (int i = 0; i < 50; ++i) {  // until the kernel has handed over every connection made so far
      std::vector<pollfd> fds;
      const size_t at = acceptor.add_pollfds(fds);
      ::poll(fds.data(), fds.size(), 20);
      acceptor.handle(std::span<const pollfd>(fds).subspan(at), std::chrono::steady_clock::now());
    }
  };
  take_all();
  std::vector<pollfd> fds;
  acceptor.add_pollfds(fds);
  EXPECT_EQ(fds.size(), 4u);  // the listener and three connections in their handshake
  acceptor.close_to_newcomers("every stream had connected");
  EXPECT_FALSE(acceptor.admitting());
  Strangers late(l.endpoint());
  late.flood(5, 2, 7, StreamKind::bandwidth);
  take_all();
  fds.clear();
  acceptor.add_pollfds(fds);
  EXPECT_EQ(fds.size(), 1u);  // the listener alone
  const auto soon = std::chrono::steady_clock::now() + std::chrono::seconds(3);  // well before the 5 s deadline
  EXPECT_EQ(early.closed_by(soon), early.size());
  EXPECT_EQ(late.closed_by(soon), late.size());
  EXPECT_EQ(acceptor.rejections().unauthenticated, 10);
  for (const auto& why : acceptor.rejections().first) EXPECT_NE(why.find(": every stream had connected"), std::string::npos) << why;
}
