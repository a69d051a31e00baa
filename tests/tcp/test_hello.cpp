#include <gtest/gtest.h>

#include "bench/tcp/hello.hpp"

using namespace gpunet::bench::tcp;

namespace {
Secret make_secret(uint8_t seed) {
  Secret s{};
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<uint8_t>(seed + i * 7);
  return s;
}
}  // namespace

TEST(TcpHello, RoundTrip) {
  Hello h;
  h.secret = make_secret(3);
  h.test_id = 0x0102030405060708ULL;
  h.sender = 77;
  h.stream = 2;
  h.streams = 4;
  h.kind = StreamKind::latency;
  const auto bytes = encode_hello(h);
  const auto back = decode_hello(bytes);
  ASSERT_TRUE(back);
  EXPECT_TRUE(secret_equal(back->secret, h.secret));
  EXPECT_EQ(back->test_id, h.test_id);
  EXPECT_EQ(back->sender, 77u);
  EXPECT_EQ(back->stream, 2);
  EXPECT_EQ(back->streams, 4);
  EXPECT_EQ(back->kind, StreamKind::latency);
  EXPECT_EQ(hello_mismatch(*back, h.secret, h.test_id, StreamKind::latency), "");
}

TEST(TcpHello, MismatchesAreNamed) {
  Hello h;
  h.secret = make_secret(1);
  h.test_id = 5;
  EXPECT_EQ(hello_mismatch(h, make_secret(2), 5, StreamKind::bandwidth), "wrong secret");
  EXPECT_NE(hello_mismatch(h, make_secret(1), 6, StreamKind::bandwidth).find("stale test id 5"), std::string::npos);
  EXPECT_EQ(hello_mismatch(h, make_secret(1), 5, StreamKind::latency), "wrong stream kind");
  Secret one_bit = make_secret(1);
  one_bit[31] ^= 1;
  EXPECT_FALSE(secret_equal(one_bit, make_secret(1)));
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

  auto ok = encode_hello(h);
  EXPECT_FALSE(decode_hello(std::span<const uint8_t>(ok.data(), ok.size() - 1)));  // short
  auto bad_stream = ok;
  bad_stream[53] = 9;  // stream 9 of 1
  EXPECT_FALSE(decode_hello(bad_stream));
  auto bad_kind = ok;
  bad_kind[56] = 7;
  EXPECT_FALSE(decode_hello(bad_kind));
  auto bad_pad = ok;
  bad_pad[63] = 1;
  EXPECT_FALSE(decode_hello(bad_pad));
}

TEST(TcpHello, Ack) {
  const auto a = encode_ack();
  EXPECT_TRUE(is_ack(a));
  auto b = a;
  b[7] = 'X';
  EXPECT_FALSE(is_ack(b));
}
