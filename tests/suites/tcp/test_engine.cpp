// The bandwidth engine over loopback: real sockets, two "ranks" as two threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <numeric>
#include <thread>

#include "bench/suites/tcp/bandwidth.hpp"
#include "loopback.hpp"

using namespace gpunet::bench::tcp;
using namespace gpunet::bench::net;
using gpunet::report::Status;
using namespace tcptest;

TEST(TcpEngine, ListenerBindsOnlyTheSelectedAddressOnAnEphemeralPort) {
  Listener a(loopback(), {});
  Listener b(loopback(), {});
  EXPECT_EQ(a.endpoint().ip.to_string(), "127.0.0.1");  // not 0.0.0.0
  EXPECT_NE(a.endpoint().port, 0);
  EXPECT_NE(a.endpoint().port, b.endpoint().port);
}

TEST(TcpEngine, SecretAcceptedByteCountExact) {
  Listener recv_l(loopback(), {}), send_l(loopback(), {});
  const auto key = key_of(1);
  const int64_t total = 8 << 20;
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key, receiver_plan(1, 0), quick(total)); });
  const auto tx = run_bandwidth(send_l, key, sender_plan(0, 1, recv_l), quick(total));
  const auto r = rx.get();
  ASSERT_EQ(tx.sent.size(), 1u);
  ASSERT_EQ(r.received.size(), 1u);
  EXPECT_EQ(tx.sent[0].status, Status::passed) << tx.sent[0].reason;
  EXPECT_EQ(r.received[0].status, Status::passed) << r.received[0].reason;
  EXPECT_EQ(tx.sent[0].bytes, total);
  EXPECT_EQ(r.received[0].bytes, total);
  EXPECT_EQ(r.received[0].peer, 0u);
  EXPECT_GT(r.received[0].goodput_bps, 0);
  EXPECT_GT(r.received[0].seconds, 0);
  ASSERT_EQ(tx.sent[0].tcp_info.size(), 1u);
  EXPECT_GT(tx.sent[0].tcp_info[0].snd_mss, 0u);
  EXPECT_GT(tx.sent[0].tcp_info[0].snd_cwnd, 0u);
  EXPECT_GE(tx.sent[0].tcp_info[0].bytes_acked, static_cast<uint64_t>(total));
  EXPECT_EQ(r.rejected.count, 0);
  // Each end's thread measured its CPU over the flow, and where it ran.
  for (const auto& c : {tx.sent[0].cpu, r.received[0].cpu}) {
    EXPECT_TRUE(c.measured);
    EXPECT_GE(c.user_pct, 0);
    EXPECT_GE(c.sys_pct, 0);
    EXPECT_GE(c.cpu, 0);
  }
}

TEST(TcpEngine, ParallelStreamsShareTheBytes) {
  Listener recv_l(loopback(), {}), send_l(loopback(), {});
  const auto key = key_of(2);
  const int64_t total = (4 << 20) + 3;  // not a multiple of the stream count
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key, receiver_plan(1, 0), quick(total, 4)); });
  const auto tx = run_bandwidth(send_l, key, sender_plan(0, 1, recv_l), quick(total, 4));
  const auto r = rx.get();
  ASSERT_EQ(r.received[0].status, Status::passed) << r.received[0].reason;
  ASSERT_EQ(r.received[0].stream_bytes.size(), 4u);
  EXPECT_EQ(r.received[0].stream_bytes[0], (total / 4) + 3);
  for (int i = 1; i < 4; ++i) EXPECT_EQ(r.received[0].stream_bytes[static_cast<size_t>(i)], total / 4);
  EXPECT_EQ(std::accumulate(r.received[0].stream_bytes.begin(), r.received[0].stream_bytes.end(), int64_t{0}), total);
  EXPECT_EQ(tx.sent[0].tcp_info.size(), 4u);
}

TEST(TcpEngine, WrongKeyIsRejected) {
  Listener recv_l(loopback(), {}), send_l(loopback(), {});
  auto p = quick(1 << 20);
  p.connect_timeout_s = 0.5;
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key_of(3), receiver_plan(1, 0), p); });
  const auto tx = run_bandwidth(send_l, key_of(4), sender_plan(0, 1, recv_l), p);
  const auto r = rx.get();
  EXPECT_EQ(tx.sent[0].status, Status::failed);
  EXPECT_NE(tx.sent[0].reason.find("closed the connection after the answer to its challenge"), std::string::npos)
      << tx.sent[0].reason;
  EXPECT_EQ(r.received[0].status, Status::failed);
  EXPECT_EQ(r.received[0].bytes, 0);
  EXPECT_EQ(r.rejected.count, 1);
  EXPECT_EQ(r.rejected.unauthenticated, 1);
  ASSERT_FALSE(r.rejected.first.empty());
  EXPECT_NE(r.rejected.first[0].find("wrong answer to the challenge"), std::string::npos) << r.rejected.first[0];
}

TEST(TcpEngine, StaleTestIdIsRejected) {
  Listener recv_l(loopback(), {}), send_l(loopback(), {});
  auto p = quick(1 << 20);
  p.connect_timeout_s = 0.5;
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key_of(5), receiver_plan(1, 0, 8), p); });
  const auto tx = run_bandwidth(send_l, key_of(5), sender_plan(0, 1, recv_l, 7), p);
  const auto r = rx.get();
  EXPECT_EQ(tx.sent[0].status, Status::failed);
  ASSERT_EQ(r.rejected.count, 1);
  EXPECT_NE(r.rejected.first[0].find("wrong test id 7 (this test is 8)"), std::string::npos) << r.rejected.first[0];
}

// Strays before the flow meet the handshake (and its deadline); a stray during the flow is closed at
// once, since every stream the receiver waits for is in. None disturbs the measurement.
TEST(TcpEngine, StraysAreRejectedWhileAMeasurementCompletes) {
  Listener recv_l(loopback(), {}), send_l(loopback(), {});
  const auto key = key_of(6);
  auto p = quick(0);
  p.duration_s = 1.0;
  p.connect_timeout_s = 0.5;  // also the hello deadline for strays
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key, receiver_plan(1, 0), p); });
  Fd garbage = raw_connect(recv_l.endpoint());
  ASSERT_TRUE(garbage);
  const std::string junk(200, 'Z');
  ASSERT_EQ(::send(garbage.get(), junk.data(), junk.size(), MSG_NOSIGNAL), static_cast<ssize_t>(junk.size()));
  Fd silent = raw_connect(recv_l.endpoint());  // connects and says nothing
  ASSERT_TRUE(silent);
  Fd impostor = raw_connect(recv_l.endpoint());  // a well-formed hello, answered with the wrong key
  ASSERT_TRUE(impostor);
  Hello h;
  h.test_id = 1;
  const auto bytes = encode_hello(h);
  ASSERT_EQ(::send(impostor.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  std::array<uint8_t, kChallengeBytes> challenge{};
  ASSERT_TRUE(recv_exactly(impostor, challenge.data(), challenge.size()));
  const auto nonce = decode_challenge(challenge);
  ASSERT_TRUE(nonce);
  const auto wrong = respond_to(key_of(99), *nonce, h, 1);
  ASSERT_EQ(::send(impostor.get(), wrong.data(), wrong.size(), MSG_NOSIGNAL), static_cast<ssize_t>(wrong.size()));
  // The garbage client is closed by the server: its read ends (EOF or reset), it is not left hanging.
  char c;
  timeval tv{3, 0};
  ::setsockopt(garbage.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  EXPECT_LE(::recv(garbage.get(), &c, 1, 0), 0);
  ::setsockopt(silent.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  EXPECT_LE(::recv(silent.get(), &c, 1, 0), 0);  // dropped at its hello deadline, before the sender comes

  auto tx = std::async(std::launch::async, [&] { return run_bandwidth(send_l, key, sender_plan(0, 1, recv_l), p); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // mid-measurement
  Fd late = raw_connect(recv_l.endpoint());
  ASSERT_TRUE(late);
  ::setsockopt(late.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  EXPECT_LE(::recv(late.get(), &c, 1, 0), 0);  // closed at once, without a challenge

  const auto s = tx.get();
  const auto r = rx.get();
  ASSERT_EQ(s.sent[0].status, Status::passed) << s.sent[0].reason;
  ASSERT_EQ(r.received[0].status, Status::passed) << r.received[0].reason;
  EXPECT_EQ(r.received[0].bytes, s.sent[0].bytes);  // every byte sent was counted, nothing else
  EXPECT_GT(r.received[0].bytes, 0);
  EXPECT_EQ(r.rejected.count, 4);
  EXPECT_EQ(r.rejected.unauthenticated, 4);
  EXPECT_EQ(r.rejected.summary(), "4 unauthenticated connections rejected");
  std::string all;
  for (const auto& why : r.rejected.first) all += why + "\n";
  EXPECT_NE(all.find("not a gpunet-bench hello"), std::string::npos) << all;
  EXPECT_NE(all.find("no complete hello within the timeout"), std::string::npos) << all;
  EXPECT_NE(all.find("wrong answer to the challenge"), std::string::npos) << all;
  EXPECT_NE(all.find("closed at once: every stream this node receives had connected"), std::string::npos) << all;
}

TEST(TcpEngine, DurationAndTimeline) {
  Listener recv_l(loopback(), {}), send_l(loopback(), {});
  const auto key = key_of(7);
  auto p = quick(0, 2);
  p.duration_s = 0.6;
  p.interval_s = 0.1;
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key, receiver_plan(1, 0), p); });
  const auto tx = run_bandwidth(send_l, key, sender_plan(0, 1, recv_l), p);
  const auto r = rx.get().received[0];
  ASSERT_EQ(r.status, Status::passed) << r.reason;
  EXPECT_GE(tx.sent[0].seconds, 0.59);
  EXPECT_LT(tx.sent[0].seconds, 1.5);
  // 0.6 s at 0.1 s per interval: 6 intervals, the last possibly left out when short.
  EXPECT_GE(r.timeline_Gbps.size(), 5u);
  EXPECT_LE(r.timeline_Gbps.size(), 8u);
  // The timeline integrates to the bytes received. Each interval counts for its own length: the
  // last one, when shorter than 0.1 s but kept, was divided by that shorter length; when shorter
  // than half an interval it is left out, so the integral may fall short but never exceed.
  double bits = 0;
  for (size_t i = 0; i < r.timeline_Gbps.size(); ++i)
    bits += r.timeline_Gbps[i] * 1e9 * std::min(0.1, r.seconds - 0.1 * static_cast<double>(i));
  const double rbits = static_cast<double>(r.bytes) * 8.0;
  EXPECT_LE(bits, rbits * 1.001);
  EXPECT_GE(bits, rbits * 0.75);
  // Goodput is bytes over the receiving time.
  EXPECT_NEAR(r.goodput_bps, rbits / r.seconds, r.goodput_bps * 0.05);
}

TEST(TcpEngine, Bidirectional) {
  Listener la(loopback(), {}), lb(loopback(), {});
  const auto key = key_of(8);
  const auto p = quick(2 << 20, 2);
  auto plan = [&](uint32_t self, uint32_t peer, const Listener& peer_l) {
    FlowPlan f = sender_plan(self, peer, peer_l);
    f.receive_from.push_back(peer);
    return f;
  };
  auto b = std::async(std::launch::async, [&] { return run_bandwidth(lb, key, plan(1, 0, la), p); });
  const auto a = run_bandwidth(la, key, plan(0, 1, lb), p);
  const auto bb = b.get();
  for (const auto* o : {&a, &bb}) {
    ASSERT_EQ(o->sent.size(), 1u);
    ASSERT_EQ(o->received.size(), 1u);
    EXPECT_EQ(o->sent[0].status, Status::passed) << o->sent[0].reason;
    EXPECT_EQ(o->received[0].status, Status::passed) << o->received[0].reason;
    EXPECT_EQ(o->received[0].bytes, 2 << 20);
  }
}

TEST(TcpEngine, ManyToOne) {
  Listener root(loopback(), {}), l1(loopback(), {}), l2(loopback(), {}), l3(loopback(), {});
  const auto key = key_of(9);
  const auto p = quick(1 << 20);
  FlowPlan rp = receiver_plan(0, 1);
  rp.receive_from = {1, 2, 3};
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(root, key, rp, p); });
  auto t1 = std::async(std::launch::async, [&] { return run_bandwidth(l1, key, sender_plan(1, 0, root), p); });
  auto t2 = std::async(std::launch::async, [&] { return run_bandwidth(l2, key, sender_plan(2, 0, root), p); });
  const auto t3 = run_bandwidth(l3, key, sender_plan(3, 0, root), p);
  t1.get();
  t2.get();
  const auto r = rx.get();
  ASSERT_EQ(r.received.size(), 3u);
  for (const auto& f : r.received) {
    EXPECT_EQ(f.status, Status::passed) << f.reason;
    EXPECT_EQ(f.bytes, 1 << 20);
  }
  EXPECT_EQ(r.received[2].peer, 3u);
  EXPECT_EQ(t3.sent[0].status, Status::passed);
}

TEST(TcpEngine, ReceiverGivesUpOnAPeerThatNeverComes) {
  Listener l(loopback(), {});
  auto p = quick(1 << 20);
  p.connect_timeout_s = 0.3;
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_bandwidth(l, key_of(10), receiver_plan(1, 0), p);
  const double took = since(t0);
  EXPECT_EQ(r.received[0].status, Status::failed);
  EXPECT_NE(r.received[0].reason.find("0 of 1 streams"), std::string::npos) << r.received[0].reason;
  EXPECT_GE(took, 1.2);  // connect timeout + 1 s of grace
  EXPECT_LT(took, 5.0);
}

TEST(TcpEngine, SenderTimesOutWhenNoAckComes) {
  Listener send_l(loopback(), {});
  Listener mute(loopback(), {});  // listens (the kernel accepts), but nobody answers the hello
  auto p = quick(1 << 20);
  p.connect_timeout_s = 0.4;
  const auto t0 = std::chrono::steady_clock::now();
  const auto tx = run_bandwidth(send_l, key_of(11), sender_plan(0, 1, mute), p);
  const double took = since(t0);
  EXPECT_EQ(tx.sent[0].status, Status::timed_out);
  EXPECT_NE(tx.sent[0].reason.find("no answer to the hello"), std::string::npos) << tx.sent[0].reason;
  EXPECT_GE(took, 0.4);
  EXPECT_LT(took, 4.0);
}

TEST(TcpEngine, ConnectionRefusedFailsAtOnce) {
  Listener send_l(loopback(), {});
  Endpoint closed;
  {
    Listener gone(loopback(), {});
    closed = gone.endpoint();
  }  // closed: nothing listens there now
  FlowPlan plan;
  plan.test_id = 1;
  plan.source = loopback();
  plan.send_to.push_back({1, closed});
  const auto tx = run_bandwidth(send_l, key_of(12), plan, quick(1 << 20));
  EXPECT_EQ(tx.sent[0].status, Status::failed);
  EXPECT_NE(tx.sent[0].reason.find("Connection refused"), std::string::npos) << tx.sent[0].reason;
}

TEST(TcpEngine, ReceiverTimesOutOnAStalledSender) {
  Listener l(loopback(), {});
  const auto key = key_of(13);
  auto p = quick(1 << 20);
  p.io_timeout_s = 0.5;
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(l, key, receiver_plan(1, 0), p); });
  // A hand-made sender: a valid handshake, some data, then silence (as when a link goes down).
  Fd fd = raw_connect(l.endpoint());
  ASSERT_TRUE(fd);
  Hello h;
  h.test_id = 1;
  h.sender = 0;
  const auto hello = encode_hello(h);
  ASSERT_EQ(::send(fd.get(), hello.data(), hello.size(), 0), static_cast<ssize_t>(hello.size()));
  std::array<uint8_t, kChallengeBytes> challenge{};
  ASSERT_EQ(::recv(fd.get(), challenge.data(), challenge.size(), MSG_WAITALL), static_cast<ssize_t>(challenge.size()));
  const auto nonce = decode_challenge(challenge);
  ASSERT_TRUE(nonce);
  const auto response = respond_to(key, *nonce, h, 1);  // to receiver 1, the plan's self
  ASSERT_EQ(::send(fd.get(), response.data(), response.size(), 0), static_cast<ssize_t>(response.size()));
  std::array<uint8_t, kAckBytes> ack{};
  ASSERT_EQ(::recv(fd.get(), ack.data(), ack.size(), MSG_WAITALL), static_cast<ssize_t>(ack.size()));
  EXPECT_TRUE(is_ack(ack));
  const std::string some(1000, 'x');
  ASSERT_EQ(::send(fd.get(), some.data(), some.size(), 0), 1000);
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = rx.get().received[0];
  EXPECT_EQ(r.status, Status::timed_out);
  EXPECT_NE(r.reason.find("no data for 0.5 s after 1000 bytes"), std::string::npos) << r.reason;
  EXPECT_EQ(r.bytes, 1000);
  EXPECT_LT(since(t0), 3.0);
}
