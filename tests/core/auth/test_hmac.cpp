// The challenge-response primitive: a known answer (computed independently with Python's hmac
// module), a wrong key, nonce, context or tag is refused, and nonces do not repeat.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "bench/core/auth/hmac.hpp"

namespace gpunet::auth {
namespace {

std::span<const uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string hex(const Tag& t) {
  std::string out;
  char buf[3];
  for (uint8_t b : t) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    out += buf;
  }
  return out;
}

Key counting_key() {
  Key k{};
  for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<uint8_t>(i);
  return k;
}

Nonce counting_nonce() {
  Nonce n{};
  for (size_t i = 0; i < n.size(); ++i) n[i] = static_cast<uint8_t>(32 + i);
  return n;
}

TEST(Hmac, KnownAnswer) {
  // python3: hmac.new(bytes(range(32)), bytes(range(32,64)) + b'tcp:7:0>1', hashlib.sha256).hexdigest()
  EXPECT_EQ(hex(respond(counting_key(), counting_nonce(), bytes("tcp:7:0>1"))),
            "c3a23ea706865c753b0b4d65034cdb36b45efb864f73080b6bbd2f515c619d5c");
}

TEST(Hmac, VerifyRefusesAnyChange) {
  const Key key = counting_key();
  const Nonce nonce = counting_nonce();
  const Tag tag = respond(key, nonce, bytes("ctx"));
  EXPECT_TRUE(verify(key, nonce, bytes("ctx"), tag));
  EXPECT_FALSE(verify(key, nonce, bytes("ctx2"), tag));
  Key other_key = key;
  other_key[0] ^= 1;
  EXPECT_FALSE(verify(other_key, nonce, bytes("ctx"), tag));
  Nonce other_nonce = nonce;
  other_nonce[31] ^= 0x80;
  EXPECT_FALSE(verify(key, other_nonce, bytes("ctx"), tag));
  Tag other_tag = tag;
  other_tag[5] ^= 4;
  EXPECT_FALSE(verify(key, nonce, bytes("ctx"), other_tag));
}

TEST(Hmac, RandomValuesDiffer) {
  EXPECT_NE(random_nonce(), random_nonce());
  EXPECT_NE(random_key(), random_key());
}

}  // namespace
}  // namespace gpunet::auth
