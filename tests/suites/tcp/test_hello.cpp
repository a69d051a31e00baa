// The handshake's pure parts: hello, challenge, response and ack, byte for byte.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "bench/suites/tcp/hello.hpp"

using namespace gpunet::bench::tcp;
namespace auth = gpunet::auth;

namespace {

template <size_t N>
std::string hex(const std::array<uint8_t, N>& bytes) {
  std::string out;
  char buf[3];
  for (uint8_t b : bytes) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    out += buf;
  }
  return out;
}

auth::Key counting_key() {
  auth::Key k{};
  for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(i);
  return k;
}

auth::Nonce counting_nonce() {
  auth::Nonce n{};
  for (size_t i = 0; i < n.size(); ++i) n[i] = static_cast<uint8_t>(32 + i);
  return n;
}

// Test 7, sender 2, stream 1 of 4, bandwidth.
Hello sample() {
  Hello h;
  h.test_id = 7;
  h.sender = 2;
  h.stream = 1;
  h.streams = 4;
  h.kind = StreamKind::bandwidth;
  return h;
}

}  // namespace

TEST(TcpHello, RoundTrip) {
  Hello h;
  h.test_id = 0x0102030405060708ULL;
  h.sender = 77;
  h.stream = 2;
  h.streams = 4;
  h.kind = StreamKind::latency;
  const auto bytes = encode_hello(h);
  const auto back = decode_hello(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->test_id, h.test_id);
  EXPECT_EQ(back->sender, 77u);
  EXPECT_EQ(back->stream, 2);
  EXPECT_EQ(back->streams, 4);
  EXPECT_EQ(back->kind, StreamKind::latency);
  EXPECT_EQ(hello_mismatch(*back, h.test_id, StreamKind::latency), "");
}

TEST(TcpHello, LayoutIsFixedAndCarriesNoSecret) {
  // magic "GPNTCP02" | test id 8 | sender 4 | stream 2 | streams 2 | kind 1 | zero 7, big-endian.
  EXPECT_EQ(hex(encode_hello(sample())), "47504e5443503032000000000000000700000002000100040100000000000000");
  EXPECT_EQ(kHelloBytes, 32u);
}

TEST(TcpHello, MismatchesAreNamed) {
  Hello h;
  h.test_id = 5;
  EXPECT_EQ(hello_mismatch(h, 5, StreamKind::bandwidth), "");
  EXPECT_EQ(hello_mismatch(h, 6, StreamKind::bandwidth), "wrong test id 5 (this test is 6)");
  EXPECT_EQ(hello_mismatch(h, 5, StreamKind::latency), "wrong stream kind");
}

TEST(TcpHello, GarbageIsRefused) {
  Hello h;
  auto bytes = encode_hello(h);
  EXPECT_TRUE(hello_prefix_ok(std::span<const uint8_t>(bytes.data(), 3)));
  bytes[1] = 'X';
  EXPECT_FALSE(hello_prefix_ok(std::span<const uint8_t>(bytes.data(), 3)));
  EXPECT_FALSE(decode_hello(bytes));
  const std::string http = "GET / HTTP/1.0\r\n\r\n";
  EXPECT_FALSE(hello_prefix_ok(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(http.data()), http.size())));

  const auto ok = encode_hello(h);
  ASSERT_TRUE(decode_hello(ok));
  EXPECT_FALSE(decode_hello(std::span<const uint8_t>(ok.data(), ok.size() - 1)));  // short
  auto bad_stream = ok;
  bad_stream[21] = 9;  // stream 9 of 1
  EXPECT_FALSE(decode_hello(bad_stream));
  auto no_streams = ok;
  no_streams[23] = 0;  // 0 streams
  EXPECT_FALSE(decode_hello(no_streams));
  auto bad_kind = ok;
  bad_kind[24] = 7;
  EXPECT_FALSE(decode_hello(bad_kind));
  auto bad_pad = ok;
  bad_pad[31] = 1;
  EXPECT_FALSE(decode_hello(bad_pad));
}

TEST(TcpHello, ChallengeRoundTrip) {
  const auto nonce = counting_nonce();
  const auto bytes = encode_challenge(nonce);
  EXPECT_EQ(bytes.size(), kMagicBytes + auth::kNonceBytes);
  const auto back = decode_challenge(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, nonce);
  EXPECT_FALSE(decode_challenge(std::span<const uint8_t>(bytes.data(), bytes.size() - 1)));
  auto bad_magic = bytes;
  bad_magic[7] = '0';
  EXPECT_FALSE(decode_challenge(bad_magic));
  // A hello is not a challenge, and a challenge is not a hello.
  const auto hello = encode_hello(sample());
  EXPECT_FALSE(hello_prefix_ok(bytes));
  EXPECT_FALSE(decode_challenge(std::span<const uint8_t>(hello.data(), hello.size())));
}

TEST(TcpHello, ResponseKnownAnswer) {
  // python3: h = b'GPNTCP02' + struct.pack('>QIHHB', 7, 2, 1, 4, 1) + bytes(7)
  //   hmac.new(bytes(range(32)), bytes(range(32, 64)) + b'gpunet-bench tcp stream' + h + struct.pack('>I', 5),
  //            hashlib.sha256).hexdigest()
  EXPECT_EQ(hex(respond_to(counting_key(), counting_nonce(), sample(), 5)),
            "05b62dc71be1fef31ecdb6b570e5c8c9713dd2712b6b77d70f2b66ab65580aa3");
}

TEST(TcpHello, ResponseBindsKeyNonceAndEveryField) {
  const auto key = counting_key();
  const auto nonce = counting_nonce();
  const Hello h = sample();
  const auto r = respond_to(key, nonce, h, 5);
  EXPECT_TRUE(response_ok(key, nonce, h, 5, r));

  auto changed = [&](auto change) {
    Hello other = h;
    change(other);
    return response_ok(key, nonce, other, 5, r);
  };
  EXPECT_FALSE(changed([](Hello& x) { x.test_id = 8; }));  // the next test
  EXPECT_FALSE(changed([](Hello& x) { x.sender = 3; }));
  EXPECT_FALSE(changed([](Hello& x) { x.stream = 2; }));
  EXPECT_FALSE(changed([](Hello& x) { x.streams = 3; }));
  EXPECT_FALSE(changed([](Hello& x) { x.kind = StreamKind::latency; }));
  EXPECT_FALSE(response_ok(key, nonce, h, 6, r));  // another receiver
  Hello reverse = h;                               // the other direction: 5 -> 2 instead of 2 -> 5
  reverse.sender = 5;
  EXPECT_FALSE(response_ok(key, nonce, reverse, 2, r));
  auth::Nonce other_nonce = nonce;
  other_nonce[0] ^= 1;
  EXPECT_FALSE(response_ok(key, other_nonce, h, 5, r));
  auth::Key other_key = key;
  other_key[31] ^= 0x40;
  EXPECT_FALSE(response_ok(other_key, nonce, h, 5, r));
  auto flipped = r;
  flipped[10] ^= 2;
  EXPECT_FALSE(response_ok(key, nonce, h, 5, flipped));
  EXPECT_FALSE(response_ok(key, nonce, h, 5, std::span<const uint8_t>(r.data(), r.size() - 1)));  // short
}

TEST(TcpHello, Ack) {
  const auto a = encode_ack();
  EXPECT_TRUE(is_ack(a));
  auto b = a;
  b[7] = 'X';
  EXPECT_FALSE(is_ack(b));
  EXPECT_FALSE(is_ack(std::span<const uint8_t>(a.data(), a.size() - 1)));
}
