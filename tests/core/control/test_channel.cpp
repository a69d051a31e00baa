// The control channel's framing and its authentication: frames survive any split of the byte
// stream, an oversized length breaks the stream, and rank 0 admits only members that answer its
// challenge with the run's key (a stranger without the key and a replay of a complete captured
// exchange are refused; the real members still get in).
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>
#include <string>
#include <vector>

#include "bench/core/control_channel.hpp"
#include "bench/core/control_frame.hpp"

namespace gpunet::bench::control {
namespace {

TEST(ControlFrame, RoundTripsAcrossAnySplit) {
  const std::string bytes = encode_frame(frame::record, "{\"a\":1}") + encode_frame(frame::heartbeat) +
                            encode_frame(frame::enter, "3\tmpi allreduce 8");
  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    FrameReader r;
    std::vector<Frame> got;
    r.feed(bytes.data(), cut);
    while (auto f = r.next()) got.push_back(*f);
    r.feed(bytes.data() + cut, bytes.size() - cut);
    while (auto f = r.next()) got.push_back(*f);
    ASSERT_EQ(got.size(), 3u) << "cut at " << cut;
    EXPECT_EQ(got[0], (Frame{frame::record, "{\"a\":1}"}));
    EXPECT_EQ(got[1], (Frame{frame::heartbeat, ""}));
    EXPECT_EQ(got[2], (Frame{frame::enter, "3\tmpi allreduce 8"}));
    EXPECT_EQ(r.buffered(), 0u);
  }
}

TEST(ControlFrame, HeaderIsTypeAndBigEndianLength) {
  EXPECT_EQ(encode_frame('R', "xyz"), std::string("R\0\0\0\3xyz", 8));
}

TEST(ControlFrame, OversizedLengthBreaksTheStream) {
  FrameReader r;
  const std::string huge("R\xff\xff\xff\xff", 5);
  r.feed(huge.data(), huge.size());
  EXPECT_FALSE(r.next());
  EXPECT_TRUE(r.broken());
  const std::string ok = encode_frame(frame::heartbeat);
  r.feed(ok.data(), ok.size());
  EXPECT_FALSE(r.next()) << "a broken stream stays broken";
}

TEST(ControlAnswer, EncodesAndParses) {
  Answer a{7, auth::Tag{}};
  a.tag[0] = 0xab;
  const auto back = parse_answer(encode_answer(a));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->rank, 7);
  EXPECT_EQ(back->tag, a.tag);
  EXPECT_FALSE(parse_answer("short"));
}

TEST(ControlAdmission, OnlyTheRightAnswerToThisChallengeGetsIn) {
  const auto key = auth::random_key();
  const auto nonce = auth::random_nonce();
  const std::vector<bool> none(4, false);
  const auto answer = [&](int rank, const auth::Key& k, const auth::Nonce& n) {
    return encode_answer({rank, auth::respond(k, n, answer_context(rank))});
  };
  EXPECT_EQ(judge_answer(key, nonce, answer(2, key, nonce), 4, none).rank, 2);
  EXPECT_EQ(judge_answer(key, nonce, answer(2, key, nonce), 4, none).refused, "");
  // A replay: the right answer to another challenge.
  EXPECT_NE(judge_answer(key, nonce, answer(2, key, auth::random_nonce()), 4, none).refused, "");
  EXPECT_NE(judge_answer(key, nonce, answer(2, auth::random_key(), nonce), 4, none).refused, "");
  // Another rank's answer, relabelled.
  Answer relabelled{3, auth::respond(key, nonce, answer_context(2))};
  EXPECT_NE(judge_answer(key, nonce, encode_answer(relabelled), 4, none).refused, "");
  EXPECT_NE(judge_answer(key, nonce, answer(4, key, nonce), 4, none).refused, "") << "rank outside the run";
  EXPECT_NE(judge_answer(key, nonce, answer(0, key, nonce), 4, none).refused, "") << "rank 0 is the listener";
  std::vector<bool> two_in(4, false);
  two_in[2] = true;
  EXPECT_NE(judge_answer(key, nonce, answer(2, key, nonce), 4, two_in).refused, "") << "a second connection";
}

// A raw client that plays the member's part by hand, to capture and replay what it sends.
class RawClient {
 public:
  explicit RawClient(const net::Endpoint& hub) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    timeval tv{10, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(hub.port);
    std::copy(hub.ip.bytes.begin(), hub.ip.bytes.begin() + 4, reinterpret_cast<uint8_t*>(&sa.sin_addr));
    EXPECT_EQ(::connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0);
  }
  ~RawClient() { ::close(fd_); }
  // The next frame, or nothing when the hub closed the connection.
  std::optional<Frame> next() {
    for (;;) {
      if (auto f = reader_.next()) return f;
      char buf[256];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) return std::nullopt;
      reader_.feed(buf, static_cast<size_t>(n));
    }
  }
  void send(const std::string& bytes) { ASSERT_EQ(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size())); }

 private:
  int fd_;
  FrameReader reader_;
};

net::IpAddress loopback() { return *net::parse_ip("127.0.0.1"); }

TEST(ControlChannel, AdmitsTheMembersAndRefusesAStrangerWithoutTheKey) {
  const auto key = auth::random_key();
  net::Listener listener(loopback(), {});
  auto hub = std::async(std::launch::async, [&] { return accept_members(listener.fd(), key, 3, 30, 10); });
  EXPECT_THROW(connect_to_hub(listener.endpoint(), auth::random_key(), 1, 10), std::runtime_error);
  {
    RawClient silent(listener.endpoint());  // says nothing: dropped after the hello bound, holds no slot
    ASSERT_TRUE(silent.next());
    auto one = connect_to_hub(listener.endpoint(), key, 1, 10);
    auto two = connect_to_hub(listener.endpoint(), key, 2, 10);
    const Members m = hub.get();
    ASSERT_TRUE(m.links[1] && m.links[2]);
    EXPECT_GE(m.rejected, 1);
    // The links carry frames both ways.
    ASSERT_TRUE(one->send(frame::record, "hello"));
    std::vector<Frame> got;
    for (int i = 0; i < 100 && got.empty(); ++i) {
      m.links[1]->read_available(got);
      if (got.empty()) ::usleep(10'000);
    }
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0], (Frame{frame::record, "hello"}));
  }
}

TEST(ControlChannel, RefusesAReplayOfACompleteCapturedExchange) {
  const auto key = auth::random_key();
  std::string captured;  // every byte rank 1 sent in a complete, successful exchange
  {
    net::Listener listener(loopback(), {});
    auto hub = std::async(std::launch::async, [&] { return accept_members(listener.fd(), key, 2, 30, 10); });
    RawClient real(listener.endpoint());
    const auto challenge = real.next();
    ASSERT_TRUE(challenge && challenge->type == frame::nonce);
    const auto nonce = parse_nonce(challenge->payload);
    ASSERT_TRUE(nonce);
    captured = encode_frame(frame::answer, encode_answer({1, auth::respond(key, *nonce, answer_context(1))}));
    real.send(captured);
    const auto welcome = real.next();
    ASSERT_TRUE(welcome && welcome->type == frame::welcome) << "the real exchange must succeed";
    EXPECT_TRUE(hub.get().links[1]);
  }
  // A listener with the same key: the stranger replays the whole exchange first.
  net::Listener listener(loopback(), {});
  auto hub = std::async(std::launch::async, [&] { return accept_members(listener.fd(), key, 2, 30, 10); });
  {
    RawClient stranger(listener.endpoint());
    const auto challenge = stranger.next();
    ASSERT_TRUE(challenge && challenge->type == frame::nonce);
    stranger.send(captured);
    EXPECT_FALSE(stranger.next()) << "a replayed answer was welcomed";
  }
  auto real = connect_to_hub(listener.endpoint(), key, 1, 10);
  const Members m = hub.get();
  EXPECT_TRUE(m.links[1]);
  EXPECT_EQ(m.rejected, 1);
}

TEST(ControlChannel, NamesTheRanksThatNeverConnect) {
  net::Listener listener(loopback(), {});
  try {
    accept_members(listener.fd(), auth::random_key(), 3, 0.3, 0.2);
    FAIL() << "no member connected, yet the hub returned";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank(s) 1, 2 did not connect"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpunet::bench::control
