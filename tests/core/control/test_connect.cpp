// Start-up at scale (issue 29): a member retries a refused or reset connect to rank 0 with a short,
// capped backoff, and rank 0 holds back (never drops) connections that arrive while every handshake
// slot is taken.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/core/control_channel.hpp"
#include "bench/core/control_frame.hpp"

namespace gpunet::bench::control {
namespace {

net::IpAddress connect_test_loopback() { return *net::parse_ip("127.0.0.1"); }

TEST(ControlConnectRetry, DelaysGrowFromFiftyMillisecondsAndStopAtOneSecond) {
  for (int rank : {1, 7, 4095}) {
    EXPECT_GE(connect_retry_delay_s(0, rank), 0.0375);
    EXPECT_LE(connect_retry_delay_s(0, rank), 0.0625);
    EXPECT_LT(connect_retry_delay_s(0, rank), connect_retry_delay_s(3, rank));
    EXPECT_LE(connect_retry_delay_s(10, rank), 1.25);
    EXPECT_GE(connect_retry_delay_s(10, rank), 0.75);
    EXPECT_LE(connect_retry_delay_s(1'000'000, rank), 1.25) << "no overflow";
  }
  EXPECT_NE(connect_retry_delay_s(5, 1), connect_retry_delay_s(5, 2)) << "ranks refused together come back apart";
}

TEST(ControlConnectRetry, RetriesRefusedAndResetButNotOtherErrors) {
  EXPECT_TRUE(connect_retryable(ECONNREFUSED));
  EXPECT_TRUE(connect_retryable(ECONNRESET));
  EXPECT_FALSE(connect_retryable(ENETUNREACH));
  EXPECT_FALSE(connect_retryable(EACCES));
}

TEST(ControlHandshakeSlots, GrowWithTheJob) {
  EXPECT_EQ(handshake_slots(24), 256u);
  EXPECT_GE(handshake_slots(4096), 4096u) << "all ranks of a large job may connect at once";
}

// A listening socket on a given loopback port (a port rank 0 does not listen on yet).
net::Fd listen_on(uint16_t port) {
  net::Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  const int one = 1;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(port);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::bind(fd.get(), reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0) << "port " << port;
  EXPECT_EQ(::listen(fd.get(), 64), 0);
  return fd;
}

TEST(ControlConnectRetry, AMemberRefusedAtFirstGetsInOnceRankZeroListens) {
  const auto key = auth::random_key();
  net::Endpoint hub;
  {
    net::Listener probe(connect_test_loopback(), {});  // a free port, closed again: connects to it are refused
    hub = probe.endpoint();
  }
  auto member = std::async(std::launch::async, [&] { return connect_to_hub(hub, key, 1, 10); });
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const net::Fd listener = listen_on(hub.port);
  const Members m = accept_members(listener.get(), key, 2, 10, 5);
  EXPECT_TRUE(m.links[1]);
  EXPECT_TRUE(member.get());
}

TEST(ControlConnectRetry, AMemberWhoseFirstConnectionIsResetTriesAgain) {
  const auto key = auth::random_key();
  net::Listener listener(connect_test_loopback(), {});
  auto member = std::async(std::launch::async, [&] { return connect_to_hub(listener.endpoint(), key, 1, 10); });
  pollfd p{listener.fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 5000), 1);
  {
    net::Fd first = net::accept_one(listener.fd(), nullptr);
    ASSERT_TRUE(first);
    const linger reset{1, 0};  // close with a reset, before any challenge
    ::setsockopt(first.get(), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
  }
  const Members m = accept_members(listener.fd(), key, 2, 10, 5);
  EXPECT_TRUE(m.links[1]);
  EXPECT_TRUE(member.get());
}

TEST(ControlConnectRetry, GivesUpWithinTheRetryWindowNamingTheRefusal) {
  net::Endpoint hub;
  {
    net::Listener probe(connect_test_loopback(), {});
    hub = probe.endpoint();
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    connect_to_hub(hub, auth::random_key(), 3, 1.0);
    FAIL() << "connected to nothing";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("refused"), std::string::npos) << what;
    EXPECT_NE(what.find("tries in"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "one line";
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 3.0);
}

// A member played by hand: it connects at once and answers only when asked to.
class SlowMember {
 public:
  explicit SlowMember(const net::Endpoint& hub) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    timeval tv{10, 0};
    ::setsockopt(fd_.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(hub.port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_.get(), reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0;
  }
  bool connected() const { return connected_; }
  std::optional<Frame> next() {
    for (;;) {
      if (auto f = reader_.next()) return f;
      char buf[256];
      const ssize_t n = ::recv(fd_.get(), buf, sizeof buf, 0);
      if (n <= 0) return std::nullopt;
      reader_.feed(buf, static_cast<size_t>(n));
    }
  }
  // Reads the challenge, answers it as `rank` and returns whether it was welcomed.
  bool join(const auth::Key& key, int rank) {
    const auto challenge = next();
    if (!challenge || challenge->type != frame::nonce) return false;
    const auto nonce = parse_nonce(challenge->payload);
    const std::string answer = encode_frame(frame::answer, encode_answer({rank, auth::respond(key, *nonce, answer_context(rank))}));
    if (::send(fd_.get(), answer.data(), answer.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(answer.size())) return false;
    const auto welcome = next();
    return welcome && welcome->type == frame::welcome;
  }

 private:
  net::Fd fd_;
  FrameReader reader_;
  bool connected_ = false;
};

TEST(ControlChannel, HoldsBackConnectionsBeyondTheHandshakeSlotsInsteadOfDroppingThem) {
  const auto key = auth::random_key();
  net::Listener listener(connect_test_loopback(), {});
  constexpr int kMembers = 8;
  constexpr size_t kSlots = 2;
  auto hub = std::async(std::launch::async, [&] { return accept_members(listener.fd(), key, kMembers + 1, 20, 10, kSlots); });
  // Every member connects before any answers: six arrive while both slots are taken.
  std::vector<std::unique_ptr<SlowMember>> members;
  for (int r = 1; r <= kMembers; ++r) {
    members.push_back(std::make_unique<SlowMember>(listener.endpoint()));
    ASSERT_TRUE(members.back()->connected());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the hub has seen them all
  for (int r = 1; r <= kMembers; ++r) EXPECT_TRUE(members[static_cast<size_t>(r - 1)]->join(key, r)) << "rank " << r << " was dropped";
  const Members m = hub.get();
  for (int r = 1; r <= kMembers; ++r) EXPECT_TRUE(m.links[static_cast<size_t>(r)]) << "rank " << r;
  EXPECT_EQ(m.rejected, 0);
}

}  // namespace
}  // namespace gpunet::bench::control
